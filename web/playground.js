/*
 * web/playground.js -- the playground's controls: samples, paste, drop and
 * file picking into the history box; Run calls the checker in WebAssembly
 * (web/isolde_wasm.c's isolde_web_check) and shows the page it returns
 * (the --html report, drawn by web/viewer.js inside it) in a sandboxed
 * frame, so that nothing in a history can reach this page.
 */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var VERDICTS = ['valid', 'not valid', 'unknown', 'error'], runs = 0;

  (window.ISOLDE_SAMPLES || []).forEach(function (s, i) {
    var o = document.createElement('option');
    o.value = String(i);
    o.textContent = s.label;
    $('sample').appendChild(o);
  });
  $('sample').addEventListener('change', function () {
    var s = window.ISOLDE_SAMPLES[+this.value];
    if (!s) return;
    $('history').value = s.text;
    $('workload').value = s.workload;
  });
  function load(file) {
    var r = new FileReader();
    r.onload = function () { $('history').value = String(r.result); };
    r.readAsText(file);
  }
  $('file').addEventListener('change', function () { if (this.files[0]) load(this.files[0]); });
  var box = $('history');
  box.addEventListener('dragover', function (e) { e.preventDefault(); box.classList.add('drop'); });
  box.addEventListener('dragleave', function () { box.classList.remove('drop'); });
  box.addEventListener('drop', function (e) {
    e.preventDefault(); box.classList.remove('drop');
    if (e.dataTransfer.files[0]) load(e.dataTransfer.files[0]);
  });

  /* A JS string into the module's memory, NUL-terminated: [pointer, bytes]. */
  function cString(M, s) {
    var n = M.lengthBytesUTF8(s), p = M._malloc(n + 1);
    M.stringToUTF8(s, p, n + 1);
    return [p, n];
  }

  function check(M) {
    var text = cString(M, $('history').value), status = M._malloc(4);
    var args = [$('workload').value, $('models').value.trim(), $('anomalies').value.trim()].map(function (s) { return cString(M, s); });
    var t0 = Date.now();
    var out = M._isolde_web_check(text[0], text[1], args[0][0], args[1][0], args[2][0], status);
    var code = M.getValue(status, 'i32'), page = M.UTF8ToString(out);
    [text[0], status, out].concat(args.map(function (a) { return a[0]; })).forEach(function (p) { M._free(p); });
    var st = $('status');
    st.className = code === 3 ? 'error' : '';
    st.setAttribute('data-status', String(code));
    st.setAttribute('data-run', String(++runs));
    if (code === 3) { st.textContent = page; return; }
    st.textContent = VERDICTS[code] + ' (checked in ' + (Date.now() - t0) + ' ms)';
    var frame = $('report'), run = runs;
    frame.onload = function () { st.setAttribute('data-shown', String(run)); };
    frame.srcdoc = page;
  }

  IsoldeModule().then(function (M) {
    var run = $('run');
    run.disabled = false;
    run.textContent = 'Run';
    run.addEventListener('click', function () { check(M); });
    window.isoldePlaygroundReady = true;
  });
})();
