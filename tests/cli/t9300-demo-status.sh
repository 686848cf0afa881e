#!/bin/sh
# tools/demo.sh (make demo) fails when its run fails: exit 0 with this
# build's isolde (the run is valid, every example checks), non-zero when the
# run ends in an error or in anomalies (an isolde whose `run` says so and
# whose `check` is this build's), or when an example cannot be checked.
. tests/clilib.sh "$@"

if "$isolde" run sqlite -n 1 -o "$tmp/probe.jsonl" 2>&1 | grep -q "unknown backend"; then
    test_skip "make demo's exit status" "built without SQLite"
    finish
fi
real=$(cd "$(dirname "$isolde")" && pwd)/$(basename "$isolde")
for st in 1 3; do
    cat >"$tmp/isolde-run-$st" <<EOF2
#!/bin/sh
[ "\$1" = run ] && { echo "a run that ends with exit $st" >&2; exit $st; }
exec "$real" "\$@"
EOF2
    chmod +x "$tmp/isolde-run-$st"
done
cat >"$tmp/isolde-check-3" <<EOF2
#!/bin/sh
[ "\$1" = check ] && exit 3
exec "$real" "\$@"
EOF2
chmod +x "$tmp/isolde-check-3"

test_case "demo with this build: exit 0" <<'T'
expect_status 0 sh tools/demo.sh "$real" "$tmp/demo"
expect_out 'valid?: true'
T

test_case "demo keeps the history it names, and says where the binary is" <<'T'
expect_status 0 sh tools/demo.sh "$real" "$tmp/demo"
expect_out "history $tmp/demo/history.jsonl"
expect_out "check $tmp/demo/history.jsonl checks it again"
expect_out "the binary is $real"
expect_status 0 "$real" check "$tmp/demo/history.jsonl"
T

for st in 1 3; do
    test_case "demo whose run exits $st: fails, saying so" <<'T'
expect_status 1 sh tools/demo.sh "$tmp/isolde-run-$st" "$tmp/demo"
expect_err "demo: failed: isolde run sqlite (exit $st)"
T
done

test_case "demo whose example checks fail with an error: fails" <<'T'
expect_status 1 sh tools/demo.sh "$tmp/isolde-check-3" "$tmp/demo"
expect_err 'demo: failed: isolde check examples/'
T

finish
