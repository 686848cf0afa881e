#!/bin/sh
# Reports people look at (issue 14), without a browser: -d's pictures (one
# DOT, and SVG when built with libgvc, per cycle; a component bounded to its
# shortest cycles), results.json and index.html; --html's one self-contained
# page; keys and values that are markup escaped in DOT, SVG and HTML; the
# viewer embedded; a 1M-transaction report written in seconds.
# tests/cli/t6100-check-html-browser.sh opens these pages in chromium. The
# histories of tests/data/html first check as their headers say
# (tests/data/README).
. tests/clilib.sh "$@"

d=tests/data/html
test_cases "$d"
gen=$build/bench/gen_history
svg=
have_feature gvc && svg=yes

test_case "-d: the text, a DOT picture per cycle, results.json and index.html" <<'T'
expect_status 1 "$isolde" check -d "$tmp/g2" examples/g2-item.edn
test -f "$tmp/g2/G2-item.txt"
test -f "$tmp/g2/G2-item/0.dot"
test -f "$tmp/g2/results.json"
test -f "$tmp/g2/index.html"
T

test_case "-d's DOT: transactions with their ops, edges with type and the proof's words" <<'T'
expect_status 1 "$isolde" check -d "$tmp/g2b" examples/g2-item.edn
f=$tmp/g2b/G2-item/0.dot
grep -q '^digraph isolde {' "$f"
grep -q 'T1 \[label="T1 = {:index 3, :type :ok, :process 1' "$f"
grep -q 'T1 -> T2 \[label="rw\\nT1 observed the initial (nil) state of key :y, which T2 created by' "$f"
grep -q 'T2 -> T1 \[label="rw' "$f"
grep -q 'T1 observed the initial (nil) state of key :y, which T2 created by appending 1' "$tmp/g2b/G2-item.txt"
T

if [ -n "$svg" ]; then
    test_case "-d's SVG, laid out by libgvc: both transactions and both edges" <<'T'
expect_status 1 "$isolde" check -d "$tmp/g2c" examples/g2-item.edn
f=$tmp/g2c/G2-item/0.svg
grep -q '<svg' "$f"
test "$(grep -c 'class="node"' "$f")" -eq 2
test "$(grep -c 'class="edge"' "$f")" -eq 2
grep -q 'observed the initial (nil) state of key :y' "$f"
T
else
    test_skip "-d's SVG" "built without libgvc (libgraphviz-dev)"
fi

test_case "-d's results.json is the --json result" <<'T'
expect_status 1 "$isolde" check -d "$tmp/g2d" --json examples/g2-item.edn
cmp "$tmp/out" "$tmp/g2d/results.json"
T

test_case "-d with several files: the pictures and pages in each file's subdirectory" <<'T'
expect_status 1 "$isolde" check -d "$tmp/many" examples/g2-item.edn examples/g1c.json
test -f "$tmp/many/examples_g2-item.edn/G2-item/0.dot"
test -f "$tmp/many/examples_g2-item.edn/index.html"
test -f "$tmp/many/examples_g1c.json/G1c/0.dot"
test -f "$tmp/many/examples_g1c.json/results.json"
not test -e "$tmp/many/index.html"
T

test_case "a component (cycle-exists, timeout) is drawn as its shortest cycles, counted, never whole" <<'T'
"$gen" -r 2 -n 2000 >"$tmp/rings.jsonl"
expect_status 1 "$isolde" check --timeout 1 -d "$tmp/rings" "$tmp/rings.jsonl"
f=$(ls "$tmp"/rings/*-cycle-exists/0.dot | head -n 1)
grep -q 'A strongly connected component of 1000 transactions and [0-9]* edges;' "$f"
grep -q 'drawn: the [1-4] shortest cycles* found ([0-9]* transactions)' "$f"
test "$(grep -c '^  T[0-9]* \[label' "$f")" -le 256
test "$(grep -c '^  T[0-9]* \[label' "$f")" -lt 1000
T

test_case "--html: one self-contained page, the data and the viewer inline, nothing fetched" <<'T'
expect_status 1 "$isolde" check --html "$tmp/r.html" examples/g2-item.edn
expect_out '^valid?: false'
grep -q '^<!DOCTYPE html>' "$tmp/r.html"
grep -q 'id="isolde-data">{"kind":"transactional","valid":"false"' "$tmp/r.html"
grep -q 'web/viewer.js -- isolde' "$tmp/r.html"
not grep -q -i -e 'src=' -e 'href=' "$tmp/r.html"
test "$(grep -o -i 'https*://[^ "'"'"']*' "$tmp/r.html" | sort -u)" = "http://www.w3.org/2000/svg"
test "$(grep -o '<script' "$tmp/r.html" | wc -l)" -eq 3
T

test_case "--html with several files: one page per file" <<'T'
expect_status 1 "$isolde" check --html "$tmp/each.html" examples/g2-item.edn examples/valid.jsonl
test -f "$tmp/each-examples_g2-item.edn-1.html"
test -f "$tmp/each-examples_valid.jsonl-2.html"
T

test_case "--html that cannot be written: an error, exit 3" <<'T'
expect_status 3 "$isolde" check --html "$tmp/no/such/dir/r.html" examples/g2-item.edn
expect_err 'cannot write'
T

test_case "--html of a linearizability check holds its witness" <<'T'
expect_status 1 "$isolde" check -m cas-register --html "$tmp/lin.html" "$d/cas-bad.edn"
grep -q '"kind":"linearizability"' "$tmp/lin.html"
grep -q '"lin":{"valid?":false' "$tmp/lin.html"
grep -q '"valid":"false",.*"not":\["linearizable"\]' "$tmp/lin.html"
not grep -q -e '"not":\[\]' -e '"also-not":\[\]' "$tmp/lin.html"
T

test_case "--html names no empty not or also-not (Jepsen's checkers rule out no model)" <<'T'
expect_status 1 "$isolde" check -m bank --html "$tmp/bank.html" tests/data/jepsen/bank-wrong-total.edn
grep -q '"kind":"jepsen","valid":"false"' "$tmp/bank.html"
not grep -q -e '"not":' -e '"also-not":' "$tmp/bank.html"
T

test_case "--html of a run" <<'T'
expect_status 0 "$isolde" run sim -n 50 -i serializable -o "$tmp/run.jsonl" --html "$tmp/run.html"
grep -q '"timeline":{' "$tmp/run.html"
T

test_case "hostile keys and values: no markup in the page, the DOT or the SVG" <<'T'
expect_status 1 "$isolde" check -d "$tmp/h" --html "$tmp/h.html" "$d/hostile.edn"
for f in "$tmp/h.html" "$tmp/h/index.html"; do test "$(grep -o -i '<script' "$f" | wc -l)" -eq 3; test "$(grep -o -i '</script' "$f" | wc -l)" -eq 3; not grep -q -i -e '<img' -e '<svg' "$f"; done
not grep -q "label=<" "$tmp/h/G2-item/0.dot"
grep -q 'key \\"</script><img src=x onerror=window.__pwned=3>\\"' "$tmp/h/G2-item/0.dot"
if [ -f "$tmp/h/G2-item/0.svg" ]; then not grep -q -i -e '<img' -e '<script' -e '<[^>]*[[:space:]]on[a-z]*=' "$tmp/h/G2-item/0.svg"; fi
T

if [ -n "$svg" ] && command -v dot >/dev/null; then
    test_case "hostile DOT labels parse as one graph of two nodes" <<'T'
"$isolde" check -d "$tmp/h2" "$d/hostile.edn" >/dev/null || true
dot -Tplain "$tmp/h2/G2-item/0.dot" >"$tmp/plain"
test "$(grep -c '^node' "$tmp/plain")" -eq 2
T
fi

if [ -x "$gen" ]; then
    test_case "a 1M-transaction history's report is written in seconds" <<'T'
"$gen" -n 1000000 -p 16 >"$tmp/h1m.jsonl"
start=$(date +%s)
expect_status 0 "$isolde" check --html "$tmp/h1m.html" "$tmp/h1m.jsonl"
test $(( $(date +%s) - start )) -lt 30
grep -q '"n":1000000' "$tmp/h1m.html"
T
else
    test_skip "a 1M-transaction report" "no $gen"
fi

finish
