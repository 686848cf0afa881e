/*
 * tests/browser/report.test.js -- the HTML reports in a real browser:
 * Debian's chromium driven by playwright-core (which downloads no browser).
 * Run by tests/cli/t6100-html-browser.sh with the pages it wrote:
 *
 *   node report.test.js OUT CASE=FILE...
 *
 * Cases: g2 (a G2-item report: clicking the anomaly highlights its two
 * transactions on the timeline, checked in the canvas's pixels), hostile
 * (keys and values that are markup: nothing executes, no element is made
 * from them, in the page and in -d's SVG), lin (a linearizability view
 * names the op that cannot follow), lin_states (hovering an op shows the
 * model's state before and after it; lin_long, a 3000-op prefix, is drawn
 * from its last 1000 ops, saying so), run (a run's statistics), nemesis (a
 * fault and its heal as one band), playground (web/index.html runs every
 * sample through the checker in WebAssembly), many (a type with more findings
 * than the page holds: 100 shown ten at a time, and how many more there
 * were), proof (a finding that is no plain cycle, rw-register's
 * fractured-read, drawn as its proof reads: its transactions, the initial
 * state, a labelled edge per step), large (a 1M-transaction report opens
 * within 10 s). Screenshots go to OUT. Prints "ok NAME" or "FAIL NAME: why"
 * per check; exits 1 on a failure.
 */
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const out = process.argv[2];
const cases = Object.fromEntries(process.argv.slice(3).map((a) => a.split(/=(.*)/s).slice(0, 2)));
let failed = 0;

function checkCase(name, ok, why) {
  if (ok) console.log('ok ' + name);
  else { failed++; console.log('FAIL ' + name + ': ' + why); }
}
const check = checkCase;

async function open(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
  /* a page from disk, or from isolde serve: it asks for nothing elsewhere */
  const served = /^http:\/\/127\.0\.0\.1:\d+\//.test(file), origin = served ? new URL(file).origin : 'file:';
  page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) errors.push('request: ' + r.url()); });
  const t0 = Date.now();
  await page.goto(served ? file : 'file://' + path.resolve(file), { timeout: 60000 });
  await page.waitForFunction(() => document.readyState === 'complete', null, { timeout: 60000 });
  return { page, errors, ms: Date.now() - t0 };
}

/* The colour at the centre of transaction t's bar, from the canvas. */
function barPixel(page, t) {
  return page.evaluate((t) => {
    const tl = window.isoldeReport.timeline, r = tl.barRect(t), dpr = window.devicePixelRatio || 1;
    const px = tl.canvas.getContext('2d').getImageData(Math.round((r.x + r.w / 2) * dpr), Math.round((r.y + r.h / 2) * dpr), 1, 1).data;
    return '#' + [px[0], px[1], px[2]].map((v) => v.toString(16).padStart(2, '0')).join('');
  }, t);
}

async function g2(browser, file) {
  const { page, errors } = await open(browser, file);
  const anomaly = page.locator('.finding[data-type="G2-item"] .anomaly').first();
  check('g2: the G2-item anomaly is listed', await anomaly.count() === 1, 'no G2-item finding');
  const before = await page.evaluate(() => window.isoldeReport.findings && window.isoldeReport.timeline.hl.size);
  check('g2: nothing highlighted before the click', before === 0, 'highlighted: ' + before);
  await anomaly.click();
  const txns = await page.evaluate(() => window.isoldeReport.data.findings.find((f) => f.type === 'G2-item').pic.v);
  const hl = await page.evaluate(() => Array.from(window.isoldeReport.timeline.hl).sort());
  check('g2: the two transactions of the cycle are highlighted', txns.length === 2 && JSON.stringify(hl) === JSON.stringify(txns.slice().sort()), 'cycle ' + txns + ', highlighted ' + hl);
  const chips = await page.locator('.hl-txn').count();
  check('g2: two highlighted transactions listed', chips === 2, chips + ' listed');
  for (const t of txns) {
    const colour = await barPixel(page, t);
    check('g2: transaction ' + t + ' is drawn highlighted', colour === '#7b2cff', 'its bar is ' + colour);
  }
  await page.locator('.hl-txn').first().click();
  const details = await page.locator('.details pre').textContent();
  check('g2: clicking a transaction shows its ops', /append/.test(details), 'details: ' + details);
  const heads = await page.locator('.names').allTextContents();
  check('g2: the header names the models checked', heads.includes('models checked: strict-serializable'), JSON.stringify(heads));
  await page.screenshot({ path: path.join(out, 'g2-item-report.png'), fullPage: true });
  check('g2: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

async function hostile(browser, file, what) {
  const { page, errors } = await open(browser, file);
  const clicks = page.locator('.anomaly, .chip, .node');
  for (let i = 0; i < await clicks.count(); i++) await clicks.nth(i).click();
  await page.mouse.click(640, 700);
  const seen = await page.evaluate(() => ({
    pwned: window.__pwned,
    imgs: document.querySelectorAll('img').length,
    scripts: document.querySelectorAll('script').length,
    handlers: Array.from(document.querySelectorAll('*')).filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))).length,
    text: document.documentElement.textContent,
  }));
  check(what + ': no script ran', seen.pwned === undefined, 'window.__pwned = ' + seen.pwned);
  check(what + ': no element made from the data', seen.imgs === 0 && seen.handlers === 0, seen.imgs + ' img, ' + seen.handlers + ' with on* attributes');
  if (!file.endsWith('.svg')) {
    check(what + ': only the report\'s own scripts', seen.scripts === 3, seen.scripts + ' script elements');
    check(what + ': the keys are shown as text', seen.text.includes('</script><img src=x onerror=window.__pwned=3>'), 'key text missing');
  }
  check(what + ': no error in the page', errors.length === 0, errors.join('; '));
  await page.screenshot({ path: path.join(out, what + '.png'), fullPage: !file.endsWith('.svg') });
  await page.close();
}

async function lin(browser, file) {
  const { page, errors } = await open(browser, file);
  const illegal = await page.locator('.lin-op.illegal').count();
  check('lin: the op that cannot follow is drawn', illegal === 1, illegal + ' drawn');
  const text = await page.locator('.illegal-op').first().textContent();
  const op = await page.evaluate(() => window.isoldeReport.data.lin.nonlinearizable[0].op);
  check('lin: the op that cannot follow is named with the state it met', text.includes('index ' + op.index) && /met the state/.test(text), text);
  const prefix = await page.locator('.lin-op circle').count();
  check('lin: linearization points are drawn', prefix > 0, 'none');
  const heads = await page.locator('.names').allTextContents();
  check('lin: not names linearizable, and no empty also-not', heads.includes('not: linearizable') && !heads.some((h) => /^also-not/.test(h)), JSON.stringify(heads));
  await page.screenshot({ path: path.join(out, 'linearizability.png'), fullPage: true });
  check('lin: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

/* Hovering an op of the prefix shows the model's state before and after
 * it; hovering the op that cannot follow, the state it met (a stale read:
 * tests/data/html/cas-stale.edn). A long prefix: the page says it holds
 * only its last 1000 ops. */
async function linStates(browser, file, long) {
  const { page, errors } = await open(browser, file);
  const panel = page.locator('.lin-state').first();
  const cas = page.locator('.lin-op.prefix', { hasText: 'cas [1,2]' }).locator('rect');
  await cas.hover();
  const text = await panel.textContent();
  check('lin states: hovering the cas shows the state before and after it', text.includes('linearized 2 in the prefix') && text.includes('state before: 1') && text.includes('state after:  2'), JSON.stringify(text));
  await page.locator('.lin-partition').first().screenshot({ path: path.join(out, 'linearizability-hover.png') });
  await page.locator('.lin-op.illegal rect').hover();
  const met = await panel.textContent();
  check('lin states: hovering the stale read shows the state it met', /read 1 .*\nmet the state 2/s.test(met), JSON.stringify(met));
  await page.screenshot({ path: path.join(out, 'linearizability-states.png'), fullPage: true });
  if (long) {
    const l = await open(browser, long);
    const capped = await l.page.locator('.lin-capped').textContent();
    const drawn = await l.page.locator('.lin-op.prefix').count();
    check('lin states: a long prefix is drawn from its last 1000 ops, saying so', drawn === 1000 && /first 2000 of the prefix's 3000 ops are not drawn/.test(capped), drawn + ' drawn; ' + capped);
    await l.page.locator('.lin-op.prefix rect').last().hover();
    const last = await l.page.locator('.lin-state').first().textContent();
    check('lin states: the last op of a long prefix has its states', /linearized 3000 in the prefix.*state before: 4.*state after:  4/s.test(last), JSON.stringify(last));
    check('lin states: no error in the long page', l.errors.length === 0, l.errors.join('; '));
    await l.page.close();
  }
  check('lin states: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

/* Nemesis ops: a fault and its heal are one band across the lanes. */
async function nemesis(browser, file) {
  const { page, errors } = await open(browser, file);
  const bands = await page.evaluate(() => window.isoldeReport.timeline.bands);
  check('nemesis: a kill and its heal are one band', JSON.stringify(bands) === '[[10,70,1]]', JSON.stringify(bands));
  check('nemesis: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

/* The report of a run: outcomes and latency quantiles, throughput, and
 * the failures by their :error. */
async function run(browser, file) {
  const { page, errors } = await open(browser, file);
  const rows = await page.locator('.stats-table tr').count();
  check('run: outcomes and latency quantiles', rows === 4, rows + ' rows');
  const fails = await page.locator('.failures').textContent();
  check('run: failures by reason, by class', /serialization-failure/.test(fails), fails);
  check('run: throughput drawn', await page.locator('canvas.throughput').count() === 1, 'no chart');
  await page.locator('.stats').screenshot({ path: path.join(out, 'run-statistics.png') });
  check('run: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

/* Every sample in the playground: the checker in WebAssembly finds what
 * the sample says, and shows the report (the --html page) in its frame. */
async function playground(browser, file, label) {
  const { page, errors } = await open(browser, file);
  const check = (name, ok, why) => checkCase(name.replace(/^playground/, label), ok, why);
  await page.waitForFunction(() => window.isoldePlaygroundReady, null, { timeout: 60000 });
  const samples = await page.evaluate(() => window.ISOLDE_SAMPLES.map((s) => [s.name, s.expect]));
  check('playground: the samples are there', samples.length >= 8, samples.length + ' samples');
  for (let i = 0; i < samples.length; i++) {
    const [name, expect] = samples[i];
    await page.selectOption('#sample', String(i));
    await page.click('#run');
    await page.waitForFunction((n) => document.getElementById('status').getAttribute('data-shown') === String(n), i + 1);
    const frame = page.frameLocator('#report');
    const verdict = await frame.locator('.verdict').textContent({ timeout: 20000 });
    const text = await frame.locator('.iso').textContent();
    const ok = expect === 'true' ? verdict === 'valid? true' : verdict === 'valid? false' && text.includes(expect + ' (');
    check('playground: sample ' + name + ' finds ' + expect, ok, verdict + '; ' + text.slice(0, 200));
    if (name === 'G2-item') {
      await frame.locator('.anomaly').first().click();
      const hl = await frame.locator('.hl-txn').count();
      check('playground: the G2-item report highlights its two transactions', hl === 2, hl + ' highlighted');
      await page.screenshot({ path: path.join(out, label.replace(/[^a-z]+/g, '-').replace(/-$/, '') + '-g2-item.png') });
    }
  }
  await page.fill('#history', '{:index 0, :type :ok');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('status').getAttribute('data-status') === '3');
  const why = await page.locator('#status').textContent();
  check('playground: a history that does not read says where', /history:1:/.test(why), why);
  check('playground: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

async function many(browser, file) {
  const { page, errors } = await open(browser, file);
  const head = await page.locator('h3', { hasText: 'garbage-read: ' }).textContent();
  check('many: the type says how many were found', head === 'garbage-read: 1500 found', head);
  const more = page.locator('.iso button', { hasText: /^show \d+ more of / });
  for (let i = 0; i < 20 && await more.count(); i++) await more.first().click();
  const shown = await page.locator('.finding[data-type="garbage-read"]').count();
  check('many: the page holds the first 100, all shown after clicking', shown === 100, shown + ' shown');
  const note = await page.locator('.not-shown').textContent();
  check('many: it says how many more of the type it does not show', note === '1400 more of this type not shown (all with --json)', note);
  await page.locator('.not-shown').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(out, 'many-not-shown.png') });
  check('many: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

async function proof(browser, file) {
  const { page, errors } = await open(browser, file);
  const f = page.locator('.finding[data-type="fractured-read"]').first();
  const nodes = await f.locator('svg.cycle .node').count();
  const init = await f.locator('svg.cycle .node[data-txn="init"] text').textContent();
  check('proof: its transactions and the initial state are drawn', nodes === 3 && init === 'init', nodes + ' nodes, the initial state ' + init);
  const edges = await f.locator('.pic li').allTextContents();
  const drawn = edges.length === 3 && edges.includes('T1 \u2192 T2 (wr): T1 wrote key :y = 1, which was read by T2') &&
    edges.some((e) => e.startsWith('T1 \u2192 init (co): T2 read key :x = nil, the initial state, though T1 wrote :x too')) &&
    edges.includes('init \u2192 T1 (co): the initial state precedes every write');
  check('proof: each step an edge, labelled with its type and the proof\'s words', drawn, JSON.stringify(edges));
  await f.locator('.anomaly').click();
  const hl = await page.evaluate(() => Array.from(window.isoldeReport.timeline.hl).sort());
  check('proof: clicking it highlights its two transactions', JSON.stringify(hl) === '[0,1]', JSON.stringify(hl));
  await f.locator('svg.cycle .node[data-txn="init"]').click();
  await f.screenshot({ path: path.join(out, 'proof-picture.png') });
  check('proof: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

async function large(browser, file) {
  const { page, errors, ms } = await open(browser, file);
  const n = await page.evaluate(() => window.isoldeReport.tl.lane.length);
  check('large: a 1M-transaction report opens within 10 s', n === 1000000 && ms < 10000, n + ' transactions in ' + ms + ' ms');
  console.log('large: opened in ' + ms + ' ms');
  const t0 = Date.now();
  await page.evaluate(() => { const t = window.isoldeReport.timeline; t.zoom(50); t.zoom(1 / 50); t.fit(); });
  check('large: zooming redraws quickly', Date.now() - t0 < 3000, (Date.now() - t0) + ' ms');
  await page.screenshot({ path: path.join(out, 'large-1m.png') });
  check('large: no error in the page', errors.length === 0, errors.join('; '));
  await page.close();
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  try {
    if (cases.g2) await g2(browser, cases.g2);
    if (cases.hostile) await hostile(browser, cases.hostile, 'hostile');
    if (cases.hostile_dir) await hostile(browser, cases.hostile_dir, 'hostile-dir-index');
    if (cases.hostile_svg) await hostile(browser, cases.hostile_svg, 'hostile-svg');
    if (cases.lin) await lin(browser, cases.lin);
    if (cases.lin_states) await linStates(browser, cases.lin_states, cases.lin_long);
    if (cases.run) await run(browser, cases.run);
    if (cases.nemesis) await nemesis(browser, cases.nemesis);
    if (cases.playground) await playground(browser, cases.playground, 'playground');
    if (cases.playground_http) await playground(browser, cases.playground_http, 'playground (isolde serve)');
    if (cases.many) await many(browser, cases.many);
    if (cases.proof) await proof(browser, cases.proof);
    if (cases.large) await large(browser, cases.large);
  } finally {
    await browser.close();
  }
  console.log(failed ? failed + ' failed' : 'all passed');
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.log('FAIL: ' + e.stack); process.exit(1); });
