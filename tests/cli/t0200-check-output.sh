#!/bin/sh
# What `isolde check` writes and how its options are spelled: several files
# with --json (one JSON object per line, with its "file"; never "### FILE"),
# several files with -d (one subdirectory per file), a -d that cannot be
# written (an error before any report), --max-examples 0 (every proof),
# values attached to short options (-cMODEL), rw-register's options given
# to list-append (a warning); what a verdict covers (issue 23: the models
# checked and not, in text, JSON and HTML; a model that forbids nothing, or
# no model at all, is never valid).
. tests/clilib.sh "$@"

mkdir "$tmp/a" "$tmp/b"
cp examples/g1c.json "$tmp/a/history.json"
cp examples/g1c.json "$tmp/b/history.json"

have_python=yes
command -v python3 >/dev/null || have_python=

test_case "--json with several files: one object per line, each with its file" <<'T'
expect_status 1 "$isolde" check --json examples/valid.jsonl examples/g1c.json
not grep -q '###' "$tmp/out"
test "$(wc -l <"$tmp/out")" -eq 2
expect_out '^{"file":"examples/valid.jsonl", *"valid?": *true'
expect_out '^{"file":"examples/g1c.json", *"valid?": *false.*"G1c"'
T

if [ -n "$have_python" ]; then
    test_case "--json with several files is JSON lines a parser reads, a file that cannot be read among them" <<'T'
expect_status 3 "$isolde" check --json examples/valid.jsonl "$tmp/no-such.edn" examples/g1c.json
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["file"] for r in rows] == ["examples/valid.jsonl", sys.argv[2], "examples/g1c.json"], rows
assert rows[0]["valid?"] is True and rows[2]["valid?"] is False and "G1c" in rows[2]["anomaly-types"]
assert "cannot" in rows[1]["error"] and "valid?" not in rows[1]
' "$tmp/out" "$tmp/no-such.edn"
T
    test_case "--json with one file is Elle's result map alone" <<'T'
expect_status 1 "$isolde" check --json examples/g1c.json
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert "file" not in r and r["valid?"] is False' "$tmp/out"
T
else
    test_skip "--json with several files is JSON lines" "no python3"
fi

test_case "-d with several files writes one subdirectory per file, never one over another" <<'T'
expect_status 1 "$isolde" check -d "$tmp/out1" examples/g1c.json "$tmp/a/history.json" "$tmp/b/history.json" examples/valid.jsonl
test -f "$tmp/out1/examples_g1c.json/G1c.txt"
sub=$(echo "$tmp/a/history.json" | sed 's|^/||; s|/|_|g')
test -f "$tmp/out1/$sub/G1c.txt"
sub=$(echo "$tmp/b/history.json" | sed 's|^/||; s|/|_|g')
test -f "$tmp/out1/$sub/G1c.txt"
test -d "$tmp/out1/examples_valid.jsonl"
not test -e "$tmp/out1/G1c.txt"
T

test_case "-d with two files of the same name: each its own subdirectory" <<'T'
expect_status 1 "$isolde" check -d "$tmp/out2" examples/g1c.json ./examples/g1c.json
test -f "$tmp/out2/examples_g1c.json-1/G1c.txt"
test -f "$tmp/out2/examples_g1c.json-2/G1c.txt"
T

test_case "-d with one file writes into DIR itself" <<'T'
expect_status 1 "$isolde" check -d "$tmp/out3/new" examples/g1c.json
test -f "$tmp/out3/new/G1c.txt"
T

test_case "-d that cannot be written fails before any report" <<'T'
touch "$tmp/plain-file"
expect_status 3 "$isolde" check -d "$tmp/plain-file/sub" examples/g1c.json
expect_err 'cannot write'
not test -s "$tmp/out"
T

# Dozens of G-single-item-realtime (the sim at serializable, seed 2)
"$isolde" run sim -i serializable -c strict-serializable -n 2000 --seed 2 -o "$tmp/many.jsonl" >/dev/null 2>&1

test_case "--max-examples 0 prints every proof; the default 3" <<'T'
expect_status 1 "$isolde" check --max-examples 0 "$tmp/many.jsonl"
n=$(sed -n 's/^== G-single-item-realtime: \([0-9]*\) found.*/\1/p' "$tmp/out")
test "$n" -gt 3
test "$(grep -c '^G-single-item-realtime #' "$tmp/out")" -eq "$n"
not grep -q 'showing' "$tmp/out"
expect_status 1 "$isolde" check "$tmp/many.jsonl"
test "$(grep -c '^G-single-item-realtime #' "$tmp/out")" -eq 3
T

for m in linearizable sequential PRAM; do
    test_case "-c $m on a G1c: unknown, saying it was not checked and what to use, in text and JSON" <<'T'
expect_status 2 "$isolde" check -c "$m" examples/g1c.json
expect_out '^valid?: unknown$'
expect_out '^models checked: none$'
expect_out "^not checked: $m: isolde does not check it on transactional histories"
expect_out "^unknown: nothing forbidden was found, but $m was not checked$"
not grep -q '^anomaly-types' "$tmp/out"
expect_status 2 "$isolde" check --json -c "$m" examples/g1c.json
expect_out '"valid?": *"unknown"'
expect_out '"models-checked": *\[\]'
expect_out "\"models-not-checked\": *\\[{\"model\": *\"$m\", *\"reason\": *\"isolde does not check it"
expect_out "\"unknown-reason\": *\"nothing forbidden was found, but $m was not checked\""
T
done

test_case "what to use instead of linearizable: the linearizability models and strict-serializable" <<'T'
expect_status 2 "$isolde" check --json -c linearizable examples/g1c.json
expect_out 'check linearizability; for transactions, strict-serializable implies it'
expect_out '-m register, cas-register or kv'
T

for c in "''" "' '" "','"; do
    test_case "-c $c and no -a: nothing was checked, unknown" <<'T'
eval "set -- $c"
expect_status 2 "$isolde" check -c "$1" examples/g1c.json
expect_out '^models checked: none$'
expect_out '^unknown: nothing was checked: -c named no model and -a no anomaly$'
expect_status 2 "$isolde" check --json -c "$1" examples/valid.jsonl
expect_out '"unknown-reason": *"nothing was checked'
T
done

test_case "-c '' -a G1c: the anomaly is checked, and the report says so" <<'T'
expect_status 1 "$isolde" check -c '' -a G1c examples/g1c.json
expect_out '^anomalies asked for: G1c$'
expect_status 0 "$isolde" check --json -c '' -a G1c examples/valid.jsonl
expect_out '"anomalies-asked": *\["G1c"\]'
not grep -q unknown-reason "$tmp/out"
T

test_case "a model checked and one not: the anomaly found stands, the one not checked is named" <<'T'
expect_status 1 "$isolde" check -c serializable,linearizable examples/g1c.json
expect_out '^models checked: serializable$'
expect_out '^not checked: linearizable: '
expect_out '^anomaly-types: G1c$'
not grep -q '^unknown' "$tmp/out"
expect_status 2 "$isolde" check -c serializable,linearizable examples/valid.jsonl
expect_out '^unknown: nothing forbidden was found, but linearizable was not checked$'
T

test_case "every report names the models checked: text, JSON, -d, HTML" <<'T'
expect_status 0 "$isolde" check -d "$tmp/cov" --html "$tmp/cov.html" examples/valid.jsonl
expect_out '^models checked: strict-serializable$'
grep -q '"models-checked": *\["strict-serializable"\]' "$tmp/cov/results.json"
grep -q '"models-checked": *\["strict-serializable"\]' "$tmp/cov.html"
expect_status 2 "$isolde" check -c PRAM,serializable --html "$tmp/cov2.html" examples/valid.jsonl
grep -q '"models-checked": *\["serializable"\]' "$tmp/cov2.html"
grep -q '"models-not-checked": *\[{"model": *"PRAM", *"reason": *"isolde does not check it' "$tmp/cov2.html"
grep -q '"unknown-reason": *"nothing forbidden was found, but PRAM was not checked"' "$tmp/cov2.html"
T

test_case "a value attached to a short option: -cMODEL, -mWORKLOAD" <<'T'
expect_status 0 "$isolde" check -cread-uncommitted examples/g1c.json
expect_status 1 "$isolde" check -cread-committed -mlist-append examples/g1c.json
expect_out 'G1c'
T

test_case "--wfr-keys (and the other rw-register options) with list-append: a warning" <<'T'
expect_status 1 "$isolde" check -m list-append --wfr-keys examples/g1c.json
expect_err "^isolde: warning: --wfr-keys is rw-register's option: list-append ignores it$"
expect_status 0 "$isolde" check -m rw-register --wfr-keys examples/rw-register.jsonl
not grep -q warning "$tmp/err"
T

# One of a thing is said in the singular (issue 23: "1 segments", "1 elements"):
# the cases of tests/data/wording (one write, one add; and two files that
# are no history, whose errors name the format detection tried, and why),
# each header saying the words (tests/data/README), and a run of one.
test_cases tests/data/wording

test_case "a run of one transaction is said in the singular" <<'T'
expect_status 0 "$isolde" run sim -p 1 -n 1 -o "$tmp/one.jsonl"
expect_out '^run: sim strict-serializable, list-append, 1 client: 1 txn + 1 final-read txn ('
T

# Every JSON isolde prints has one style: compact separators ("key":value,
# a,b), white space outside strings only as layout (tests/tools/json_style.py).
if [ -n "$have_python" ]; then
    test_case "one JSON style in every JSON isolde prints" <<'T'
"$isolde" check --json examples/g1c.json >"$tmp/j1.json" || true
"$isolde" check --json examples/g1c.json examples/valid.jsonl >"$tmp/j2.jsonl" || true
printf '' >"$tmp/empty.jsonl"
"$isolde" check --json "$tmp/empty.jsonl" >"$tmp/j3.json" || true
"$isolde" check --json -m register tests/data/wording/one-write.edn >"$tmp/j4.json"
"$isolde" check --json -m set-full tests/data/wording/one-add.edn >"$tmp/j5.json"
"$isolde" run sim --nemesis crash --fault-every 0.0002 --fault-for 0.0001 -n 300 --json -o "$tmp/j6.jsonl" >"$tmp/j7.json" 2>/dev/null
"$isolde" campaign sim -i serializable --seeds 1 -n 50 --json >"$tmp/j8.json"
python3 tests/tools/json_style.py "$tmp"/j*.json "$tmp"/j*.jsonl
T
fi

test_case "an option the workload ignores warns whether the workload was asked for or inferred" <<'T'
printf '{"7": 1}\n' >"$tmp/order.json"
expect_status 1 "$isolde" check --transaction-order "$tmp/order.json" examples/g1c.json
expect_err "^isolde: warning: examples/g1c.json: --transaction-order is rw-register's option: list-append (the model inferred from the history) ignores it$"
expect_status 1 "$isolde" check --wfr-keys examples/g1c.json
expect_err "^isolde: warning: examples/g1c.json: --wfr-keys is rw-register's option: list-append"
expect_status 1 "$isolde" check -m list-append --transaction-order "$tmp/order.json" examples/g1c.json
expect_err "^isolde: warning: --transaction-order is rw-register's option: list-append ignores it$"
expect_status 0 "$isolde" check --group-size 3 examples/rw-register.jsonl
expect_err "warning: examples/rw-register.jsonl: --group-size is long-fork's option: rw-register"
expect_status 0 "$isolde" check --transaction-order "$tmp/order.json" --wfr-keys examples/rw-register.jsonl
not grep -q warning "$tmp/err"
T

test_case "a --transaction-order file of binary data is refused as such (/dev/zero: at once)" <<'T'
expect_status 3 timeout 20 "$isolde" check -m rw-register --transaction-order /dev/zero examples/rw-register.jsonl
expect_err '^/dev/zero: binary data (a NUL byte at offset 0), not a transaction order$'
printf '{"1": 1}\0' >"$tmp/nul.json"
expect_status 3 "$isolde" check -m rw-register --transaction-order "$tmp/nul.json" examples/rw-register.jsonl
expect_err 'nul.json: binary data (a NUL byte at offset 8)'
T

finish
