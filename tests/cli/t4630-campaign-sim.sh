#!/bin/sh
# `isolde campaign` against the simulated database, whose levels are known,
# and SQLite: the table (a row per level x workload, a column per model of
# the ladder, what the runs covered), anomalies where a level admits them
# and valid cells where it does not, "no contention" on a valid cell only
# when no transaction was contended and "no faults" only when none was
# injected (a command nemesis on SQLite), --json, -o DIR keeping the histories,
# and the usage errors. PostgreSQL and MariaDB: t4610.
. tests/clilib.sh "$@"
export TMPDIR="$tmp"

cell() { # LEVEL WORKLOAD MODEL: "type:seeds ..." or "valid", from $tmp/out (--json)
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    if r["level"] == sys.argv[2] and r["workload"] == sys.argv[3]:
        c = r["models"][sys.argv[4]]
        print(" ".join("%s:%d" % kv for kv in sorted(c["anomalies"].items())) or "valid")' "$tmp/out" "$@"
}

test_case "the table: a row per level and workload, a column per model, what each row covered" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 2 -i snapshot-isolation,strict-serializable
expect_out '^campaign: sim, 2 seeds x 1000 txns, 10 clients, 4 keys; no faults injected$'
expect_out '^| level | workload | strict-serializable | serializable | snapshot-isolation | repeatable-read | read-committed | read-uncommitted | covered |$'
test "$(grep -c '^| snapshot-isolation | \(list-append\|rw-register\) |' "$tmp/out")" = 2
expect_out '^| snapshot-isolation | list-append | G2-item.* | G2-item | valid (no faults) |'
expect_out '^| strict-serializable | list-append | valid (no faults) | valid (no faults) |'
expect_out '| [0-9]* ok, [0-9]* fail, 0 info; [0-9]* contended; 10 clients, 4 keys; [0-9.]* s; faults: none |$'
T

test_case "--json: snapshot isolation shows G2-item in every seed and is valid for itself; strict-serializable is valid" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 3 -i snapshot-isolation,strict-serializable --json
cell snapshot-isolation list-append serializable | grep -q 'G2-item:3'
test "$(cell snapshot-isolation list-append snapshot-isolation)" = valid
test "$(cell strict-serializable list-append strict-serializable)" = valid
test "$(cell strict-serializable rw-register strict-serializable)" = valid
T

test_case "a broken level is caught both ways: lost-update mode shows lost-update, read-committed does not forbid it" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 2 -i lost-update --json
cell lost-update list-append snapshot-isolation | grep -q 'lost-update:2'
cell lost-update list-append read-committed >"$tmp/rc"
not grep -q 'lost-update' "$tmp/rc"
T

test_case "one client: no contention, and the valid cells say so" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 1 -p 1 -i serializable
expect_out '| valid (no contention, no faults) |'
expect_out '; 0 contended; 1 client,'
T

test_case "many clients: contended transactions counted, no valid cell claims no contention" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 1 -i serializable
not grep -q 'no contention' "$tmp/out"
not grep -q '; 0 contended;' "$tmp/out"
T

test_case "sqlite: every cell valid (its one level, serializable)" <<'T'
"$isolde" run --help | grep -q '^sqlite:' || exit 0
expect_status 0 "$isolde" campaign sqlite --url "$tmp/c.db" --seeds 2 -n 100 --json
for w in list-append rw-register; do
    test "$(cell serializable $w strict-serializable)" = valid
done
T

test_case "sqlite under a command nemesis: the faults are counted per row, and no valid cell claims none" <<'T'
"$isolde" run --help | grep -q '^sqlite:' || exit 0
expect_status 0 "$isolde" campaign sqlite --url "$tmp/f.db" --seeds 1 -n 3000 --nemesis command --fault true --heal true --fault-every 0.002 --fault-for 0.001
expect_out '^campaign: sqlite, 1 seed x 3000 txns, 10 clients, 4 keys; faults: command, one every 0.002 s on average, each for 0.001 s$'
expect_out '^| serializable | list-append | valid | valid |'
expect_out '; faults: [1-9][0-9]* (command) |$'
not grep -q 'no faults' "$tmp/out"
T

test_case "-o DIR keeps every history; without it none is left behind" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 2 -n 50 -i serializable,read-committed -o "$tmp/keep"
test "$(ls "$tmp/keep" | wc -l)" = 8
test -s "$tmp/keep/read-committed-rw-register-2.jsonl"
expect_status 0 "$isolde" campaign sim --seeds 2 -n 50 -i serializable
not ls -d "$tmp"/isolde-campaign-*
T

test_case "usage errors: no backend, an unknown one, an unknown level, --seeds 0" <<'T'
expect_status 3 "$isolde" campaign
expect_status 3 "$isolde" campaign nosuch
expect_err "unknown backend 'nosuch'"
expect_status 3 "$isolde" campaign sim -i snapshot
expect_err "sim runs at"
expect_status 3 "$isolde" campaign sim --seeds 0
T

# A terminal gets a compact table, a word per model and the anomalies found
# on a line of their own, every line within 100 columns (the Markdown rows
# ran past 300); a file gets the Markdown, and stderr a line per run.
if command -v script >/dev/null; then
    test_case "on a terminal: the compact table, within 100 columns; --markdown: the Markdown one" <<'T'
script -qec "$isolde campaign sim --seeds 2 -n 300 -i snapshot-isolation,strict-serializable" "$tmp/typescript" >"$tmp/tty" </dev/null
tr -d '\r' <"$tmp/tty" | sed 's/.*\x1b\[K//' >"$tmp/out"
expect_out '^level  *workload  *SS  *SER  *SI  *RR  *RC  *RU  *ok  *cont\.$'
expect_out '^snapshot-isolation   list-append  no   no   yes  no   yes  yes  *[0-9]*%  *[0-9]*%$'
expect_out '^  found: G2-item'
expect_out '^strict-serializable  list-append  yes  yes  yes  yes  yes  yes  '
not grep -q '^| ' "$tmp/out"
awk 'length > 100 { print "line " NR " is " length " columns"; bad = 1 } END { exit bad }' "$tmp/out"
script -qec "$isolde campaign sim --seeds 1 -n 100 -i serializable --markdown" "$tmp/typescript" >"$tmp/tty" </dev/null
tr -d '\r' <"$tmp/tty" | sed 's/.*\x1b\[K//' >"$tmp/out"
expect_out '^| serializable | list-append |'
T
else
    test_skip "campaign on a terminal" "no script(1)"
fi

test_case "stdout not a terminal: the Markdown table, and a line per run on stderr" <<'T'
expect_status 0 "$isolde" campaign sim --seeds 2 -n 100 -i serializable
expect_out '^| serializable | list-append |'
expect_err '^campaign: run 1 of 4: serializable list-append seed 1$'
expect_err '^campaign: run 4 of 4: serializable rw-register seed 2$'
T

finish
