#!/bin/sh
# CLI tests of `isolde check`: exit statuses, JSON shape, -d files, error
# messages with file:line:col for malformed input, and argument errors.
. tests/clilib.sh "$@"


# Verdicts of the examples.
expect_status 0 "$isolde" check examples/valid.jsonl
expect_status 1 "$isolde" check examples/g1c.json
expect_status 1 "$isolde" check examples/g2-item.edn
expect_status 0 "$isolde" check -c read-committed examples/g2-item.edn
expect_status 1 "$isolde" check -c '' -a G2 examples/g2-item.edn
expect_status 0 "$isolde" check -c '' -a G0 examples/g2-item.edn

# Unknown: a history with no dependency between transactions.
printf '{"index":0,"type":"invoke","process":0,"value":[["append","x",1]]}\n{"index":1,"type":"ok","process":0,"value":[["append","x",1]]}\n' >"$tmp/one.jsonl"
expect_status 2 "$isolde" check "$tmp/one.jsonl"
grep -q 'empty-transaction-graph' "$tmp/out" && ok || bad "unknown verdict names empty-transaction-graph"

# JSON shape: Elle's keys.
"$isolde" check --json examples/g2-item.edn >"$tmp/g2.json"
python3 - "$tmp/g2.json" <<'PY' && ok || bad "JSON shape of g2-item"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["valid?"] is False, r
assert r["anomaly-types"] == ["G2-item"], r
assert r["not"] == ["repeatable-read"], r
assert "serializable" in r["also-not"], r
c = r["anomalies"]["G2-item"][0]
assert [s["type"] for s in c["steps"]] == ["rw", "rw"], c
assert c["cycle"][0] == c["cycle"][-1] and len(c["cycle"]) == 3, c
assert c["steps"][0]["value"] == "elle.list-append/init", c
PY
"$isolde" check --json examples/valid.jsonl | python3 -c 'import json,sys; assert json.load(sys.stdin) == {"valid?": True}' \
    && ok || bad "valid JSON is {\"valid?\": true}"

# Text proof wording.
"$isolde" check examples/g1c.json >"$tmp/g1c.txt"
grep -q "observed T[12]'s append of 1 to key" "$tmp/g1c.txt" && ok || bad "G1c proof names the append"
grep -q ": a contradiction!" "$tmp/g1c.txt" && ok || bad "G1c proof ends in a contradiction"

# -d writes one file per anomaly type.
expect_status 1 "$isolde" check -d "$tmp/out-dir" examples/g2-item.edn
[ -f "$tmp/out-dir/G2-item.txt" ] && grep -q '^G2-item #0' "$tmp/out-dir/G2-item.txt" && ok || bad "-d writes G2-item.txt"

# Several files: the worst status wins.
expect_status 1 "$isolde" check examples/valid.jsonl examples/g1c.json

# Malformed input: file:line:col: message, exit 3.
while IFS="$(printf '\t')" read -r file pos msg; do
    [ -n "$file" ] || continue
    f=tests/fixtures/read/bad/$file
    "$isolde" check "$f" >"$tmp/out" 2>"$tmp/err"; st=$?
    if [ $st = 3 ] && grep -qF "$f:$pos: $msg" "$tmp/err"; then ok
    else bad "$f: exit $st, stderr: $(cat "$tmp/err")"; fi
done < tests/fixtures/read/bad/EXPECTED

# Workload violations are errors, not verdicts.
printf '{"index":0,"type":"ok","process":0,"value":[["append","x",1]]}\n{"index":1,"type":"ok","process":1,"value":[["append","x",1]]}\n' >"$tmp/dup.jsonl"
expect_status 3 "$isolde" check -m list-append "$tmp/dup.jsonl"
grep -q "dup.jsonl:2:1: .*already appended" "$tmp/err" && ok || bad "duplicate append message: $(cat "$tmp/err")"
printf '{"index":0,"type":"ok","process":0,"value":[["inc","x",1]]}\n' >"$tmp/mop.jsonl"
expect_status 3 "$isolde" check -m list-append "$tmp/mop.jsonl"

# Argument errors.
expect_status 3 "$isolde" check -c no-such-model examples/valid.jsonl
grep -q "unknown consistency model: no-such-model" "$tmp/err" && ok || bad "unknown model message"
expect_status 3 "$isolde" check --bogus examples/valid.jsonl
expect_status 3 "$isolde" check "$tmp/does-not-exist.edn"
expect_status 3 "$isolde" check -s abc examples/valid.jsonl
expect_status 3 "$isolde" check
expect_status 0 "$isolde" check --help
expect_status 0 "$isolde" --version
expect_status 3 "$isolde" frobnicate

finish "cli check"
