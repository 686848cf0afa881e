/*
 * web/viewer.js -- isolde's report viewer: the one piece of JavaScript that
 * draws a report from its data (the JSON that `isolde check --html` embeds
 * in the page, or that the playground gets from the checker in WebAssembly).
 * It shows the verdict, every anomaly with its proof and its cycle picture,
 * the timeline (one lane per process, a bar per transaction, nemesis ops as
 * bands; zoom, pan, click), incompatible-order tables, and the
 * linearizability view of a linearizability result.
 *
 * Invariant: data reaches the page only as text (textContent, attribute
 * values through setAttribute on fixed names, canvas fillText): no markup
 * is ever built from data, so no key, value or error can execute. The
 * timeline draws only what is visible, merging bars narrower than a pixel,
 * so a history of a million transactions stays interactive.
 *
 * The Makefile embeds this file into the binary (report/html.c); it must
 * never hold the characters of a closing script tag.
 */
(function () {
  'use strict';

  var CSS = [
    'body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}',
    '.iso{max-width:1400px;margin:0 auto;padding:12px 20px}',
    '.iso h1{font-size:20px;margin:8px 0}.iso h2{font-size:17px;margin:18px 0 6px;border-bottom:1px solid #ccc}',
    '.iso .verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:bold}',
    '.iso .v-true{background:#2a8a2a}.iso .v-false{background:#c0392b}.iso .v-unknown{background:#b7950b}',
    '.iso .names span{display:inline-block;background:#eee;border-radius:3px;padding:0 5px;margin:1px 3px 1px 0}',
    '.iso pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto;max-height:360px;font-size:12px}',
    '.iso .finding{background:#fff;border:1px solid #ddd;border-radius:4px;margin:8px 0;padding:6px 10px}',
    '.iso .anomaly{cursor:pointer;color:#1a4fa0;font-weight:bold;background:none;border:0;font-size:15px;padding:0}',
    '.iso .anomaly:hover{text-decoration:underline}',
    '.iso .finding.active{border-color:#7b2cff;box-shadow:0 0 0 2px #d9c6ff}',
    '.iso .tlwrap{position:relative;background:#fff;border:1px solid #ccc;overflow-y:auto;overflow-x:hidden;max-height:600px}',
    '.iso canvas{display:block;cursor:grab;position:sticky;top:0}',
    '.iso .controls button{margin-right:4px}',
    '.iso .chip{display:inline-block;border:1px solid #7b2cff;border-radius:10px;padding:0 6px;margin:2px;cursor:pointer;font-size:12px}',
    '.iso .details{background:#fff;border:1px solid #ddd;padding:6px 10px;min-height:20px;font-size:13px}',
    '.iso table.io{border-collapse:collapse;margin:4px 0}.iso table.io td,.iso table.io th{border:1px solid #ccc;padding:2px 6px;font:12px monospace}',
    '.iso table.io td.diff{background:#ffe0e0}',
    '.iso svg text{font:11px monospace}.iso .pic{overflow:auto}',
    '.iso .legend span{display:inline-block;width:12px;height:10px;margin:0 3px 0 10px;vertical-align:middle}',
    '.iso .lin-state{background:#fff;border:1px solid #ddd;padding:4px 8px;margin:4px 0;font:12px monospace;white-space:pre-wrap;min-height:32px}',
    '.iso .lin-op:hover rect{stroke:#000;stroke-width:2}.iso .lin-op text,.iso .lin-op circle{pointer-events:none}',
    '.iso .muted{color:#777}'
  ].join('\n');

  var COLOURS = {ok: '#7fbf7f', fail: '#e8908a', info: '#f2c14e', hl: '#7b2cff', mark: '#c0392b', nem: 'rgba(90,90,90,0.13)'};
  var TYPE_NAMES = ['invoke', 'ok', 'fail', 'info'];
  var FIRST_SHOWN = 10;

  /* ---- DOM building, text only --------------------------------------- */

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function put(parent, child) { parent.appendChild(child); return child; }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function names(label, list) {
    var p = el('div', 'names');
    add(p, el('b', null, label + ': '));
    if (!list || !list.length) add(p, el('span', 'muted', 'none'));
    (list || []).forEach(function (n) { add(p, el('span', null, Array.isArray(n) ? n[0] + ' (' + n[1] + ')' : n)); });
    return p;
  }

  /* ---- the timeline ---------------------------------------------------- */

  /* The timeline as the page holds it (report/html.c: starts and op
   * indices as differences, ends as durations, kinds as bits), decoded. */
  function decodeTimeline(t) {
    var n = t.n, d = {unit: t.unit, lanes: t.lanes, nemesis: t.nemesis || [], lane: Int32Array.from(t.lane),
      start: new Float64Array(n), end: new Float64Array(n), type: new Uint8Array(n),
      inv: new Float64Array(n), cmp: new Float64Array(n)};
    for (var i = 0, s = 0, b = 0; i < n; i++) {
      s += t.start[i]; b += t.base[i];
      var k = t.kind[i];
      d.start[i] = s;
      d.end[i] = t.dur[i] < 0 ? -1 : s + t.dur[i];
      d.type[i] = k & 3;
      d.inv[i] = k & 4 ? b : -1;
      d.cmp[i] = k & 8 ? b + t.cmp[i] : -1;
    }
    return d;
  }

  /* Each transaction's ops, one escaped line each, found when first asked. */
  function OpsText(text) { this.text = text || ''; this.at = null; }
  OpsText.prototype.get = function (i) {
    if (!this.at) {
      var at = [0], t = this.text;
      for (var p = t.indexOf('\n'); p >= 0; p = t.indexOf('\n', p + 1)) at.push(p + 1);
      this.at = at;
    }
    if (i + 1 >= this.at.length) return '';
    return this.text.slice(this.at[i], this.at[i + 1] - 1).replace(/\\(.)/g, function (m, c) {
      return c === 'l' ? '<' : c === 'n' ? '\n' : c;
    });
  };

  function Timeline(tl, host, onPick) {
    this.tl = tl;
    this.onPick = onPick;
    var n = tl.lane.length, maxT = 1, i;
    for (i = 0; i < n; i++) {
      if (tl.start[i] > maxT) maxT = tl.start[i];
      if (tl.end[i] > maxT) maxT = tl.end[i];
    }
    (tl.nemesis || []).forEach(function (x) { if (x[0] > maxT) maxT = x[0]; });
    this.maxT = maxT;
    this.ends = new Float64Array(n);
    for (i = 0; i < n; i++) this.ends[i] = tl.end[i] < 0 ? maxT : Math.max(tl.end[i], tl.start[i]);
    this.buildLanes();
    this.bands = nemesisBands(tl.nemesis || [], maxT);
    this.hl = new Set();
    this.marked = new Set();
    this.picked = -1;
    this.laneH = Math.max(5, Math.min(22, Math.floor(480 / Math.max(1, tl.lanes.length))));
    this.top = 26;
    this.wrap = put(host, el('div', 'tlwrap'));
    this.canvas = put(this.wrap, el('canvas'));
    this.canvas.setAttribute('id', 'timeline');
    this.spacer = put(this.wrap, el('div'));
    this.fit();
    this.listen();
  }

  /* Per lane, its transactions by start, with the running maximum of their
   * ends (so the first one visible from t is found by bisection). */
  Timeline.prototype.buildLanes = function () {
    var tl = this.tl, n = tl.lane.length, L = tl.lanes.length, count = new Int32Array(L + 1), i;
    for (i = 0; i < n; i++) count[tl.lane[i] + 1]++;
    for (i = 0; i < L; i++) count[i + 1] += count[i];
    var order = new Int32Array(n), at = count.slice(0, L);
    for (i = 0; i < n; i++) order[at[tl.lane[i]]++] = i;
    this.lanes = [];
    for (var l = 0; l < L; l++) {
      var ids = order.subarray(count[l], count[l + 1]), sorted = true;
      for (i = 1; i < ids.length && sorted; i++) sorted = tl.start[ids[i - 1]] <= tl.start[ids[i]];
      if (!sorted) ids = Int32Array.from(ids).sort(function (a, b) { return tl.start[a] - tl.start[b]; });
      var reach = new Float64Array(ids.length), m = -Infinity;
      for (i = 0; i < ids.length; i++) { m = Math.max(m, this.ends[ids[i]]); reach[i] = m; }
      this.lanes.push({ids: ids, reach: reach});
    }
  };

  function nemesisBands(nem, maxT) {
    var bands = [], open = null, close = null;
    nem.forEach(function (x) {
      var f = String(x[2]).replace(/^:/, '');
      if (/^start-/.test(f) || f === 'kill' || f === 'pause') { /* a fault (Jepsen's names) */
        if (close !== null) { bands.push([open, close, 1]); open = null; close = null; }
        if (open === null) open = x[0];
      } else if ((/^stop/.test(f) || f === 'start' || f === 'resume') && open !== null) close = x[0]; /* its heal */
      else if (open === null) bands.push([x[0], x[0], 0]);
    });
    if (open !== null) bands.push([open, close !== null ? close : maxT, 1]);
    return bands;
  }

  Timeline.prototype.width = function () { return Math.max(300, this.wrap.clientWidth - 2); };
  Timeline.prototype.fit = function () { this.view(0, this.maxT); };
  Timeline.prototype.view = function (t0, t1) {
    var w = this.width();
    this.x0 = t0;
    this.scale = w / Math.max(1e-9, t1 - t0);
    this.draw();
  };
  Timeline.prototype.px = function (t) { return (t - this.x0) * this.scale; };

  /* The canvas shows the lanes scrolled into view (the wrapper scrolls
   * over a spacer as tall as every lane); only those are drawn. */
  Timeline.prototype.draw = function () {
    var c = this.canvas, w = this.width(), L = this.lanes.length, total = this.top + L * this.laneH + 4;
    var h = Math.min(total, 580), dpr = window.devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr); c.height = Math.round(h * dpr);
      c.style.width = w + 'px'; c.style.height = h + 'px';
      this.spacer.style.height = (total - h) + 'px';
    }
    this.y0 = this.wrap.scrollTop;
    var g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = '#fff'; g.fillRect(0, 0, w, h);
    this.drawAxis(g, w, h);
    this.drawBands(g, w, h);
    g.save();
    g.beginPath(); g.rect(0, this.top - 2, w, h); g.clip();
    var t0 = this.x0, t1 = this.x0 + w / this.scale;
    this.firstLane = Math.max(0, Math.floor(this.y0 / this.laneH));
    this.lastLane = Math.min(L, Math.ceil((this.y0 + h) / this.laneH));
    for (var l = this.firstLane; l < this.lastLane; l++) this.drawLane(g, l, t0, t1);
    this.drawLaneNames(g);
    g.restore();
  };
  Timeline.prototype.laneY = function (l) { return this.top + l * this.laneH - this.y0; };

  Timeline.prototype.drawAxis = function (g, w, h) {
    var span = w / this.scale, step = Math.pow(10, Math.floor(Math.log10(Math.max(span / 8, 1e-9))));
    if (span / step > 16) step *= 5; else if (span / step > 8) step *= 2;
    if (this.tl.unit !== 'ns') step = Math.max(1, step);
    g.fillStyle = '#555'; g.font = '11px sans-serif'; g.strokeStyle = '#eee';
    for (var t = Math.ceil(this.x0 / step) * step; t <= this.x0 + span; t += step) {
      var x = Math.round(this.px(t)) + 0.5;
      g.beginPath(); g.moveTo(x, this.top - 6); g.lineTo(x, h); g.stroke();
      g.fillText(this.label(t), x + 2, 12);
    }
  };
  Timeline.prototype.drawLaneNames = function (g) {
    g.font = '11px sans-serif';
    for (var l = this.firstLane; l < this.lastLane && this.laneH >= 10; l++) {
      var name = String(this.tl.lanes[l]), y = this.laneY(l);
      g.fillStyle = 'rgba(255,255,255,0.8)'; g.fillRect(0, y + 1, g.measureText(name).width + 6, this.laneH - 2);
      g.fillStyle = '#333'; g.fillText(name, 3, y + this.laneH - 4);
    }
  };
  Timeline.prototype.label = function (t) {
    if (this.tl.unit !== 'ns') return String(Math.round(t));
    if (t >= 1e9) return (t / 1e9).toFixed(3).replace(/\.?0+$/, '') + ' s';
    if (t >= 1e6) return (t / 1e6).toFixed(3).replace(/\.?0+$/, '') + ' ms';
    return (t / 1e3).toFixed(1) + ' µs';
  };

  Timeline.prototype.drawBands = function (g, w, h) {
    for (var i = 0; i < this.bands.length; i++) {
      var b = this.bands[i], x1 = this.px(b[0]), x2 = this.px(b[1]);
      if (x2 < 0 || x1 > w) continue;
      g.fillStyle = b[2] ? COLOURS.nem : 'rgba(90,90,90,0.5)';
      g.fillRect(x1, this.top - 4, Math.max(1, x2 - x1), h - this.top + 4);
    }
  };

  /* The first position of lane l whose transaction may be visible from t. */
  function firstVisible(lane, t) {
    var lo = 0, hi = lane.ids.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (lane.reach[mid] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }

  Timeline.prototype.barColour = function (i) {
    if (this.hl.has(i)) return COLOURS.hl;
    var k = this.tl.type[i];
    return k === 2 ? COLOURS.fail : k === 3 ? COLOURS.info : COLOURS.ok;
  };

  Timeline.prototype.drawLane = function (g, l, t0, t1) {
    var lane = this.lanes[l], tl = this.tl, y = this.laneY(l) + 1, bh = Math.max(2, this.laneH - 3);
    var run = null, marks = [];
    for (var k = firstVisible(lane, t0); k < lane.ids.length; k++) {
      var i = lane.ids[k], s = tl.start[i];
      if (s > t1) break;
      if (this.ends[i] < t0) continue;
      var x1 = this.px(s), x2 = Math.max(this.px(this.ends[i]), x1 + 1), col = this.barColour(i);
      if (this.hl.has(i) || this.marked.has(i) || i === this.picked) { marks.push(i); continue; }
      if (tl.end[i] < 0) { /* never completed, or :info: it may take effect any time after */
        g.fillStyle = col; g.fillRect(x1, y + bh / 3, x2 - x1, Math.max(1, bh / 3));
        continue;
      }
      if (run && run.col === col && x1 <= run.x2 + 1 && x2 - x1 < 2) { run.x2 = Math.max(run.x2, x2); continue; }
      if (run) { g.fillStyle = run.col; g.fillRect(run.x1, y, run.x2 - run.x1, bh); }
      run = {x1: x1, x2: x2, col: col};
      if (x2 - x1 >= 2) { g.fillStyle = col; g.fillRect(x1, y, x2 - x1, bh); g.strokeStyle = 'rgba(0,0,0,0.25)'; g.strokeRect(x1 + 0.5, y + 0.5, x2 - x1 - 1, bh - 1); run = null; }
    }
    if (run) { g.fillStyle = run.col; g.fillRect(run.x1, y, run.x2 - run.x1, bh); }
    for (var m = 0; m < marks.length; m++) this.drawMarked(g, marks[m], y, bh);
  };

  /* A transaction of an anomaly (marked), of the anomaly shown
   * (highlighted) or picked: drawn last, at least 5 px wide. */
  Timeline.prototype.drawMarked = function (g, i, y, bh) {
    var x1 = this.px(this.tl.start[i]), x2 = Math.max(this.px(this.ends[i]), x1 + 5);
    g.fillStyle = this.barColour(i);
    g.fillRect(x1, y, x2 - x1, bh);
    g.lineWidth = this.hl.has(i) || i === this.picked ? 2 : 1;
    g.strokeStyle = i === this.picked ? '#000' : COLOURS.mark;
    g.strokeRect(x1 + 1, y + 1, x2 - x1 - 2, bh - 2);
    g.lineWidth = 1;
  };

  /* Where transaction i's bar is, in CSS pixels of the canvas. */
  Timeline.prototype.barRect = function (i) {
    var x1 = this.px(this.tl.start[i]), x2 = Math.max(this.px(this.ends[i]), x1 + 5), l = this.tl.lane[i];
    return {x: x1, y: this.laneY(l) + 1, w: x2 - x1, h: Math.max(2, this.laneH - 3)};
  };

  Timeline.prototype.hit = function (x, y) {
    var l = Math.floor((y - this.top + this.y0) / this.laneH);
    if (l < 0 || l >= this.lanes.length) return -1;
    var lane = this.lanes[l], t = this.x0 + x / this.scale, tol = 3 / this.scale, best = -1;
    for (var k = firstVisible(lane, t - tol); k < lane.ids.length; k++) {
      var i = lane.ids[k];
      if (this.tl.start[i] > t + tol) break;
      if (this.ends[i] + tol >= t) best = i;
    }
    return best;
  };

  Timeline.prototype.listen = function () {
    var self = this, c = this.canvas, drag = null;
    c.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = c.getBoundingClientRect(), t = self.x0 + (e.clientX - r.left) / self.scale;
      var f = e.deltaY < 0 ? 1.25 : 0.8;
      self.scale *= f;
      self.x0 = t - (e.clientX - r.left) / self.scale;
      self.draw();
    }, {passive: false});
    this.wrap.addEventListener('scroll', function () {
      if (self.pending) return;
      self.pending = true;
      window.requestAnimationFrame(function () { self.pending = false; self.draw(); });
    });
    c.addEventListener('mousedown', function (e) { drag = {x: e.clientX, x0: self.x0, moved: false}; });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      if (Math.abs(e.clientX - drag.x) > 3) drag.moved = true;
      self.x0 = drag.x0 - (e.clientX - drag.x) / self.scale;
      self.draw();
    });
    window.addEventListener('mouseup', function (e) {
      if (drag && !drag.moved) {
        var r = c.getBoundingClientRect(), i = self.hit(e.clientX - r.left, e.clientY - r.top);
        if (i >= 0) self.pick(i);
      }
      drag = null;
    });
  };

  Timeline.prototype.pick = function (i) { this.picked = i; this.draw(); this.onPick(i); };
  Timeline.prototype.zoom = function (f) {
    var mid = this.x0 + this.width() / this.scale / 2;
    this.scale *= f;
    this.x0 = mid - this.width() / this.scale / 2;
    this.draw();
  };

  /* Highlight txns and show them: the view spans them with a margin. */
  Timeline.prototype.show = function (txns) {
    this.hl = new Set(txns);
    if (!txns.length) { this.draw(); return; }
    var lo = Infinity, hi = -Infinity, self = this;
    txns.forEach(function (i) { lo = Math.min(lo, self.tl.start[i]); hi = Math.max(hi, self.ends[i]); });
    var pad = Math.max((hi - lo) * 0.15, 1), lane = Infinity;
    txns.forEach(function (i) { lane = Math.min(lane, self.tl.lane[i]); });
    this.wrap.scrollTop = Math.max(0, lane * this.laneH - 40);
    this.view(Math.max(0, lo - pad), hi + pad);
  };

  /* ---- findings -------------------------------------------------------- */

  /* The op indices named in a finding's JSON: each op object's "index". */
  function opIndices(v, out) {
    if (Array.isArray(v)) v.forEach(function (x) { opIndices(x, out); });
    else if (v && typeof v === 'object') {
      if (typeof v.index === 'number' && 'type' in v && 'process' in v) out.push(v.index);
      for (var k in v) if (k !== 'index') opIndices(v[k], out);
    }
    return out;
  }

  function Report(data, root, opsText) {
    this.data = data;
    this.tl = data.timeline ? decodeTimeline(data.timeline) : null;
    this.ops = new OpsText(opsText);
    this.root = put(root, el('div', 'iso'));
    var style = el('style');
    style.textContent = CSS;
    document.head.appendChild(style);
  }

  Report.prototype.txnOfIndex = function (idx) {
    var tl = this.tl;
    if (!this.byIndex) {
      this.byIndex = new Map();
      for (var i = 0; i < tl.lane.length; i++) {
        if (tl.inv[i] >= 0) this.byIndex.set(tl.inv[i], i);
        if (tl.cmp[i] >= 0) this.byIndex.set(tl.cmp[i], i);
      }
    }
    return this.byIndex.has(idx) ? this.byIndex.get(idx) : -1;
  };

  Report.prototype.txnsOf = function (f) {
    if (f.pic) return f.pic.v.filter(function (t) { return t !== null; });
    if (!this.tl) return [];
    var self = this, seen = new Set();
    opIndices(f.json, []).forEach(function (x) { var t = self.txnOfIndex(x); if (t >= 0) seen.add(t); });
    return Array.from(seen);
  };

  Report.prototype.header = function () {
    var d = this.data, h = put(this.root, el('h1', null, 'isolde report '));
    add(h, el('span', 'verdict v-' + d.valid, 'valid? ' + d.valid));
    if (d['models-checked']) add(this.root, names('models checked', d['models-checked']));
    if (d['anomalies-asked']) add(this.root, names('anomalies asked for', d['anomalies-asked']));
    if (d['models-not-checked']) add(this.root, names('not checked', d['models-not-checked'].map(function (m) { return [m.model, m.reason]; })));
    if (d['unknown-reason']) add(put(this.root, el('div', 'names')), el('b', null, 'unknown: '), el('span', 'muted', d['unknown-reason']));
    add(this.root, names('anomaly types', d.types));
    if (d.not) add(this.root, names('not', d.not));
    if (d['also-not']) add(this.root, names('also-not', d['also-not']));
    if (d.text && d.text.indexOf('\n') < 0) add(this.root, el('div', 'summary muted', d.text));
  };

  /* Each type's findings as the page holds them (the first ones of each:
   * the data's "not-shown" counts the rest), FIRST_SHOWN at a time. */
  Report.prototype.findings = function () {
    var list = this.data.findings || [], notShown = this.data['not-shown'] || {}, found = {};
    if (!list.length) return;
    (this.data.types || []).forEach(function (t) { found[t[0]] = t[1]; });
    add(this.root, el('h2', null, 'Anomalies'));
    var box = put(this.root, el('div')), self = this, byType = {};
    list.forEach(function (f) { (byType[f.type] = byType[f.type] || []).push(f); });
    Object.keys(byType).forEach(function (type) {
      var fs = byType[type], shown = 0, more = null;
      var section = put(box, el('div'));
      add(section, el('h3', null, type + ': ' + (found[type] || fs.length) + ' found'));
      var showMore = function () {
        for (var end = Math.min(fs.length, shown + FIRST_SHOWN); shown < end; shown++) section.insertBefore(self.finding(fs[shown]), more);
        if (shown >= fs.length && more) more.remove();
        else if (more) more.textContent = 'show ' + Math.min(FIRST_SHOWN, fs.length - shown) + ' more of ' + (fs.length - shown);
      };
      if (fs.length > FIRST_SHOWN) { more = put(section, el('button')); more.addEventListener('click', showMore); }
      showMore();
      if (notShown[type] > 0) add(section, el('div', 'muted not-shown', notShown[type] + ' more of this type not shown (all with --json)'));
    });
  };

  Report.prototype.finding = function (f) {
    var self = this, div = el('div', 'finding'), txns = this.txnsOf(f);
    div.setAttribute('data-type', f.type);
    div.setAttribute('data-n', String(f.n));
    var b = put(div, el('button', 'anomaly', f.type + ' #' + f.n));
    add(div, el('span', 'muted', txns.length ? '  ' + txns.length + ' transaction' + (txns.length === 1 ? '' : 's') + ': click to show on the timeline' : ''));
    b.addEventListener('click', function () { self.select(f, div, txns); });
    add(div, el('pre', null, f.text));
    if (f.pic) add(div, this.picture(f.pic));
    if (f.type === 'incompatible-order' && f.json && Array.isArray(f.json.values)) add(div, incompatible(f.json));
    return div;
  };

  Report.prototype.select = function (f, div, txns) {
    var old = this.root.querySelector('.finding.active');
    if (old) old.classList.remove('active');
    div.classList.add('active');
    if (!this.timeline) return;
    this.timeline.show(txns);
    var chips = this.chips, self = this;
    chips.textContent = '';
    add(chips, el('span', 'muted', f.type + ' #' + f.n + ': '));
    txns.forEach(function (t) {
      var c = put(chips, el('span', 'chip hl-txn', self.txnName(t)));
      c.setAttribute('data-txn', String(t));
      c.addEventListener('click', function () { self.timeline.pick(t); });
    });
    this.timeline.wrap.scrollIntoView({block: 'nearest'});
  };

  Report.prototype.txnName = function (t) {
    var tl = this.tl;
    return 'process ' + tl.lanes[tl.lane[t]] + ', index ' + (tl.cmp[t] >= 0 ? tl.cmp[t] : tl.inv[t]);
  };

  /* A finding's picture (a cycle, a component, a proof's steps), laid
   * out on a circle; a null transaction is the initial state. */
  Report.prototype.picture = function (pic) {
    var wrap = el('div', 'pic'), n = pic.v.length, self = this;
    var name = function (i) { return pic.v[i] === null ? 'init' : 'T' + (i + 1); };
    if (pic.note) add(wrap, el('div', 'muted', pic.note));
    if (!n) return wrap;
    var R = n === 1 ? 0 : Math.max(90, n * 60 / (2 * Math.PI)), W = 2 * R + 260, H = 2 * R + 80, cx = W / 2, cy = H / 2;
    var shown = Math.min(W, 1000);
    var s = svg('svg', {width: shown, height: H * shown / W, viewBox: '0 0 ' + W + ' ' + H, 'class': 'cycle'});
    add(s, add(svg('defs', {}), add(svg('marker', {id: 'arr', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto'}), svg('path', {d: 'M0,0L10,5L0,10z', fill: '#555'}))));
    var pos = pic.v.map(function (_, i) {
      var a = -Math.PI / 2 + 2 * Math.PI * i / n;
      return [cx + R * Math.cos(a), cy + R * Math.sin(a)];
    });
    pic.e.forEach(function (e) { add(s, edge(pos[e[0]], pos[e[1]], e[2], e[3], e[0] === e[1])); });
    pic.v.forEach(function (t, i) {
      var g = put(s, svg('g', {'class': 'node', 'data-txn': t === null ? 'init' : t}));
      add(g, svg('title', {}, t === null ? 'the initial state' : self.tl ? self.txnName(t) + '\n' + self.ops.get(t) : name(i)));
      add(g, svg('rect', {x: pos[i][0] - 22, y: pos[i][1] - 12, width: 44, height: 24, rx: t === null ? 12 : 5, fill: '#efe6ff', stroke: COLOURS.hl}));
      add(g, svg('text', {x: pos[i][0], y: pos[i][1] + 4, 'text-anchor': 'middle'}, name(i)));
      if (t === null) return;
      g.style.cursor = 'pointer';
      g.addEventListener('click', function () { if (self.timeline) self.timeline.pick(t); });
    });
    add(wrap, s);
    var ul = put(wrap, el('ul'));
    pic.e.forEach(function (e) { add(ul, el('li', null, name(e[0]) + ' \u2192 ' + name(e[1]) + ' (' + e[2] + '): ' + e[3])); });
    return wrap;
  };

  function edge(a, b, types, words, self) {
    var g = svg('g', {'class': 'edge'});
    add(g, svg('title', {}, words));
    var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
    var mx = (a[0] + b[0]) / 2 + dy / len * 30, my = (a[1] + b[1]) / 2 - dx / len * 30;
    var ux = (mx - b[0]), uy = (my - b[1]), ul = Math.sqrt(ux * ux + uy * uy) || 1;
    var ex = b[0] + ux / ul * 24, ey = b[1] + uy / ul * 14;
    var d = self ? 'M' + a[0] + ',' + (a[1] - 12) + ' c 30,-50 60,0 22,12' : 'M' + a[0] + ',' + a[1] + ' Q' + mx + ',' + my + ' ' + ex + ',' + ey;
    add(g, svg('path', {d: d, fill: 'none', stroke: '#555', 'marker-end': 'url(#arr)'}));
    add(g, svg('text', {x: mx, y: my, 'text-anchor': 'middle', fill: '#a03000'}, types));
    return g;
  }

  function incompatible(j) {
    var t = el('table', 'io'), vals = j.values, width = 0;
    vals.forEach(function (v) { width = Math.max(width, Array.isArray(v) ? v.length : 1); });
    var head = put(t, el('tr'));
    add(head, el('th', null, 'read of key ' + JSON.stringify(j.key)));
    for (var i = 0; i < width; i++) add(head, el('th', null, String(i)));
    vals.forEach(function (v) {
      var tr = put(t, el('tr'));
      add(tr, el('td', null, ''));
      (Array.isArray(v) ? v : [v]).forEach(function (x, k) {
        var td = put(tr, el('td', null, JSON.stringify(x)));
        var differs = vals.some(function (o) { return Array.isArray(o) && k < o.length && JSON.stringify(o[k]) !== JSON.stringify(x); });
        if (differs) td.className = 'diff';
      });
    });
    return t;
  }

  Report.prototype.timelineSection = function () {
    var tl = this.tl;
    if (!tl) return;
    var self = this;
    add(this.root, el('h2', null, 'Timeline'));
    var legend = put(this.root, el('div', 'legend muted', tl.lane.length + ' transactions, ' + tl.lanes.length + ' processes, time in ' + (tl.unit === 'ns' ? ':time' : 'op index')));
    [['ok', COLOURS.ok], ['fail', COLOURS.fail], ['info', COLOURS.info], ['anomaly shown', COLOURS.hl], ['nemesis', 'rgba(90,90,90,0.3)']].forEach(function (x) {
      var sw = put(legend, el('span')); sw.style.background = x[1]; add(legend, document.createTextNode(x[0]));
    });
    var ctl = put(this.root, el('div', 'controls'));
    [['+', 1.6], ['\u2212', 1 / 1.6]].forEach(function (z) {
      put(ctl, el('button', null, z[0])).addEventListener('click', function () { self.timeline.zoom(z[1]); });
    });
    put(ctl, el('button', null, 'fit')).addEventListener('click', function () { self.timeline.fit(); });
    add(ctl, el('span', 'muted', ' wheel: zoom, drag: pan, click a transaction: its ops'));
    this.chips = put(this.root, el('div', 'chips'));
    var host = put(this.root, el('div'));
    this.details = put(this.root, el('div', 'details muted', 'click a transaction'));
    this.timeline = new Timeline(tl, host, function (i) { self.showTxn(i); });
    (this.data.findings || []).forEach(function (f) { self.txnsOf(f).forEach(function (t) { self.timeline.marked.add(t); }); });
    this.timeline.draw();
    window.addEventListener('resize', function () { self.timeline.draw(); });
  };

  Report.prototype.showTxn = function (i) {
    var tl = this.tl, d = this.details, self = this;
    d.textContent = '';
    d.className = 'details';
    add(d, el('b', null, this.txnName(i) + ' (' + TYPE_NAMES[tl.type[i]] + ')'));
    add(d, el('div', 'muted', 'invoked ' + (tl.inv[i] >= 0 ? 'at index ' + tl.inv[i] : '-') + ', completed ' + (tl.cmp[i] >= 0 ? 'at index ' + tl.cmp[i] : '-') + '; ' + this.timeline.label(tl.start[i]) + ' to ' + (tl.end[i] < 0 ? 'the end' : this.timeline.label(tl.end[i]))));
    add(d, el('pre', null, this.ops.get(i)));
    (this.data.findings || []).forEach(function (f) {
      if (self.txnsOf(f).indexOf(i) >= 0) add(d, el('div', null, 'in ' + f.type + ' #' + f.n));
    });
  };

  /* ---- statistics ------------------------------------------------------ */

  function quantile(sorted, q) { return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN; }

  /* Outcomes, latency quantiles, throughput over time, failures by reason. */
  Report.prototype.statsSection = function () {
    var tl = this.tl, tm = this.timeline;
    if (!tl || !tl.lane.length) return;
    var box = put(this.root, el('div', 'stats'));
    add(box, el('h2', null, 'Statistics'));
    var n = tl.lane.length, lat = {1: [], 2: [], 3: []}, count = {1: 0, 2: 0, 3: 0};
    for (var i = 0; i < n; i++) {
      count[tl.type[i]] = (count[tl.type[i]] || 0) + 1;
      if (tl.end[i] >= 0 && lat[tl.type[i]]) lat[tl.type[i]].push(tl.end[i] - tl.start[i]);
    }
    var t = put(box, el('table', 'io stats-table')), head = put(t, el('tr'));
    ['outcome', 'transactions', 'p50', 'p90', 'p99', 'max'].forEach(function (h) { add(head, el('th', null, h)); });
    [[1, 'ok'], [2, 'fail'], [3, 'info']].forEach(function (o) {
      var l = Float64Array.from(lat[o[0]]).sort(), tr = put(t, el('tr'));
      add(tr, el('td', null, o[1]), el('td', null, String(count[o[0]] || 0)));
      [0.5, 0.9, 0.99, 1].forEach(function (q) {
        var v = q === 1 ? (l.length ? l[l.length - 1] : NaN) : quantile(l, q);
        add(tr, el('td', null, isNaN(v) ? '-' : tm.duration(v)));
      });
    });
    add(box, el('div', 'muted', 'latency: from invocation to completion (' + (tl.unit === 'ns' ? ':time' : 'op indices') + '); info transactions never completed, so have none'));
    this.throughput(box);
    this.failures(box);
  };

  Timeline.prototype.duration = function (d) {
    if (this.tl.unit !== 'ns') return String(d) + ' ops';
    return d >= 1e9 ? (d / 1e9).toFixed(2) + ' s' : d >= 1e6 ? (d / 1e6).toFixed(2) + ' ms' : (d / 1e3).toFixed(1) + ' µs';
  };

  /* Completions per bucket of time, stacked by outcome. */
  Report.prototype.throughput = function (box) {
    var tl = this.tl, tm = this.timeline, B = 80, W = 900, H = 120, max = 0, i;
    var b = [new Float64Array(B), new Float64Array(B), new Float64Array(B)];
    for (i = 0; i < tl.lane.length; i++) {
      var at = tl.end[i] >= 0 ? tl.end[i] : tl.start[i], k = Math.min(B - 1, Math.floor(at / tm.maxT * B));
      b[tl.type[i] - 1][k]++;
    }
    for (i = 0; i < B; i++) max = Math.max(max, b[0][i] + b[1][i] + b[2][i]);
    add(box, el('div', null, 'throughput: transactions completed per ' + tm.duration(tm.maxT / B) + ' (at most ' + max + ')'));
    var c = put(box, el('canvas', 'throughput')), g = c.getContext('2d');
    c.width = W; c.height = H;
    var cols = [COLOURS.ok, COLOURS.fail, COLOURS.info];
    for (i = 0; i < B; i++) {
      var y = H;
      for (var o = 0; o < 3; o++) {
        var h = max ? b[o][i] / max * (H - 4) : 0;
        g.fillStyle = cols[o]; g.fillRect(i * W / B, y - h, W / B - 1, h); y -= h;
      }
    }
  };

  /* Failures by class (an :error's first item: serialization-failure,
   * deadlock, ...), each with its count and its first error in full. */
  Report.prototype.failures = function (box) {
    var errs = this.data.timeline.errors || [];
    if (!errs.length) return;
    var by = new Map();
    errs.forEach(function (e) { var r = by.get(e[1]) || { n: 0, first: e[2] }; r.n++; by.set(e[1], r); });
    var rows = Array.from(by.entries()).sort(function (a, b) { return b[1].n - a[1].n; });
    add(box, el('div', null, 'failures by reason (:error), ' + errs.length + ' in all'));
    var t = put(box, el('table', 'io failures'));
    rows.slice(0, 20).forEach(function (r) {
      var tr = put(t, el('tr'));
      add(tr, el('td', null, String(r[1].n)), el('td', null, r[0]), el('td', 'muted', r[1].first));
    });
    if (rows.length > 20) add(box, el('div', 'muted', (rows.length - 20) + ' more reasons'));
  };

  /* ---- linearizability --------------------------------------------------- */

  Report.prototype.linSection = function () {
    var lin = this.data.lin;
    if (!lin) return;
    add(this.root, el('h2', null, 'Linearizability: ' + lin.model + ', ' + lin['op-count'] + ' ops in ' + lin.partitions + ' partition' + (lin.partitions === 1 ? '' : 's')));
    var self = this;
    (lin.nonlinearizable || []).forEach(function (p) { add(self.root, linPartition(p)); });
    if (lin['nonlinearizable-omitted']) add(this.root, el('div', 'muted lin-capped', lin['nonlinearizable-omitted'] + ' more partitions that are not linearizable are not drawn (the page holds ' + lin.nonlinearizable.length + '; the text and --json reports have them all)'));
    if (!(lin.nonlinearizable || []).length) add(this.root, el('div', 'muted', 'every partition is linearizable'));
  };

  function opWords(o) { return o.f + ' ' + JSON.stringify(o.value) + ' (process ' + o.process + ', index ' + o.index + ')'; }

  /* What the model's state was around op o, as the model prints it: the
   * prefix's and earlier ops' states before and after them, the state the
   * ops that could not go next met. */
  function stateWords(o, kind, met) {
    var w = opWords(o);
    if (o.order) w = 'linearized ' + o.order + (kind === 'prefix' ? ' in the prefix' : '') + ': ' + w;
    if (o['state-before'] !== undefined) return w + '\nstate before: ' + o['state-before'] + '\nstate after:  ' + o['state-after'];
    if (kind === 'bad') return w + '\nmet the state ' + met + (o.why ? '\n' + o.why : '');
    return w + '\n(no state kept: only the last ops of a long prefix have theirs)';
  }

  function opEnd(o, last) { return o['complete-index'] === null || o['complete-index'] === undefined ? last : o['complete-index']; }

  /* One partition that cannot be linearized: earlier ops, the longest
   * linearizable prefix with its points, the ops that could not go next. */
  function linPartition(p) {
    var box = el('div', 'finding lin-partition');
    add(box, el('h3', null, (p.key === null || p.key === undefined ? 'the register' : 'key ' + JSON.stringify(p.key)) + ': not linearizable'));
    var rows = [];
    (p['earlier-ops'] || []).forEach(function (o) { rows.push([o, 'earlier']); });
    (p['linearizable-prefix'] || []).forEach(function (o) { rows.push([o, 'prefix']); });
    (p['could-not-go-next'] || []).forEach(function (o) { rows.push([o, 'bad']); });
    var lo = Infinity, hi = -Infinity;
    rows.forEach(function (r) { lo = Math.min(lo, r[0].index); hi = Math.max(hi, r[0].index, r[0]['complete-index'] || 0); });
    hi += 2;
    var procs = [];
    rows.forEach(function (r) { if (procs.indexOf(r[0].process) < 0) procs.push(r[0].process); });
    procs.sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
    /* 8 px per op index at least: a long prefix scrolls sideways, its bars stay wide enough to hover */
    var W = Math.min(60000, Math.max(900, (hi - lo) * 8 + 110)), LH = 28, X = function (t) { return 90 + (t - lo) / Math.max(1, hi - lo) * (W - 110); };
    var s = svg('svg', {width: W, height: procs.length * LH + 30, 'class': 'lin'});
    procs.forEach(function (pr, k) { add(s, svg('text', {x: 4, y: 20 + k * LH + 14}, 'process ' + pr)); });
    var bad = p.op || {}, met = bad['state-met'] !== undefined ? bad['state-met'] : JSON.stringify(p.state);
    var panel = el('div', 'lin-state muted', 'hover an op for the model\'s state before and after it');
    rows.forEach(function (r) {
      var o = r[0], y = 20 + procs.indexOf(o.process) * LH, x1 = X(o.index), x2 = Math.max(X(opEnd(o, hi)), x1 + 6);
      var isBad = r[1] === 'bad' && o.index === bad.index;
      var g = put(s, svg('g', {'class': 'lin-op ' + r[1] + (isBad ? ' illegal' : ''), 'data-index': o.index}));
      var words = stateWords(o, r[1], met);
      add(g, svg('title', {}, words));
      g.addEventListener('mouseenter', function () { panel.className = 'lin-state'; panel.textContent = words; });
      add(g, svg('rect', {x: x1, y: y, width: x2 - x1, height: LH - 8, rx: 3, fill: r[1] === 'bad' ? (isBad ? '#c0392b' : '#f0a8a0') : r[1] === 'prefix' ? '#7fbf7f' : '#cfe3cf', stroke: isBad ? '#000' : '#666'}));
      add(g, svg('text', {x: x1 + 3, y: y + 14}, o.f + ' ' + JSON.stringify(o.value)));
      if (o['linearized-after'] !== undefined && o['linearized-after'] !== null) {
        var lx = X(o['linearized-after'] + 0.5);
        add(g, svg('circle', {cx: lx, cy: y + (LH - 8) / 2, r: 4, fill: '#1a4fa0'}));
      }
    });
    add(box, add(el('div', 'pic'), s), panel);
    if (p['prefix-omitted']) add(box, el('div', 'muted lin-capped', 'the first ' + p['prefix-omitted'] + ' of the prefix\'s ' + p['prefix-length'] + ' ops are not drawn: the page holds its last ' + p['linearizable-prefix'].length + ' (the text and --json reports have them all)'));
    var early = p['earlier-ops'] || [], pre = p['linearizable-prefix'] || [];
    var from = early.length ? early[0]['state-before'] : JSON.stringify(p['earlier-state']);
    var start = pre.length && pre[0].order === 1 ? pre[0]['state-before'] : early.length ? early[early.length - 1]['state-after'] : JSON.stringify(p['initial-state']);
    add(box, el('div', null, (early.length ? 'the ' + early.length + ' earlier ops (all returned before any later op was called) linearize from state ' + from + ' to ' : 'from state ') + start + ', the longest linearizable prefix after them reaches state ' + met));
    var illegal = put(box, el('div', 'illegal-op'));
    add(illegal, el('b', null, 'first op that cannot follow: '));
    add(illegal, document.createTextNode(bad.f + ' ' + JSON.stringify(bad.value) + ' by process ' + bad.process + ' (index ' + bad.index + '), which met the state ' + met));
    var ul = put(box, el('ul'));
    (p['could-not-go-next'] || []).forEach(function (o) { add(ul, el('li', null, o.f + ' ' + JSON.stringify(o.value) + ' (process ' + o.process + '): ' + o.why)); });
    add(box, el('div', 'muted', 'bars: light green the ops before, green the longest linearizable prefix (dots: linearization points), red the ops that could not go next; the dark red one is the op the report names. Hover an op for the state before and after it.'));
    return box;
  }

  Report.prototype.textSection = function () {
    if (!this.data.text || this.data.text.indexOf('\n') < 0) return;
    var d = put(this.root, el('details'));
    add(d, el('summary', null, 'the text report'));
    add(d, el('pre', null, this.data.text));
  };

  function render(data, root, opsText) {
    var r = new Report(data, root || document.body, opsText);
    r.header();
    r.linSection();
    r.findings();
    r.timelineSection();
    r.statsSection();
    r.textSection();
    window.isoldeReport = r;
    return r;
  }

  window.isoldeViewer = {render: render};
  var block = document.getElementById('isolde-data');
  if (block) {
    var t0 = Date.now();
    var ops = document.getElementById('isolde-ops');
    render(JSON.parse(block.textContent), document.body, ops ? ops.textContent : '');
    window.isoldeRenderMs = Date.now() - t0;
  }
})();
