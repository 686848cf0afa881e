#!/bin/sh
# `isolde scenario`: the directed interleavings against SQLite (BEGIN
# IMMEDIATE: one writer at a time, so every scenario runs serially and is
# valid, the second transaction waiting on the first's lock: that, and the
# table `scenario all sqlite` ends with, are SQLite's rows of
# tests/data/sql/, run by t4610 with the servers'), the histories they
# write (a setup, the scripted transactions, the final reads), --json, and
# the usage errors. Skipped without SQLite.
. tests/clilib.sh "$@"
export TMPDIR="$tmp"

if ! "$isolde" run --help | grep -q '^sqlite:'; then
    test_skip "SQLite scenarios" "built without SQLite"
    finish
fi

test_case "a scenario's history: the setup, T1 and T2 in turn (serial on sqlite), the final reads" <<'T'
expect_status 0 "$isolde" scenario write-skew sqlite --url "$tmp/ws.db" -o "$tmp"
h="$tmp/isolde-write-skew-serializable.jsonl"
test "$(wc -l <"$h")" = 8
grep -q '"process":0,"f":"txn","value":\[\["append",1,1\],\["append",2,2\]\]' "$h"
grep -q '"type":"ok","process":1,"f":"txn","value":\[\["r",1,\[1\]\],\["r",2,\[2\]\],\["append",1,11\]\]' "$h"
grep -q '"type":"ok","process":2,"f":"txn","value":\[\["r",1,\[1,11\]\],\["r",2,\[2\]\],\["append",2,21\]\]' "$h"
grep -q '"type":"ok","process":3,"f":"txn","value":\[\["r",1,\[1,11\]\],\["r",2,\[2,21\]\]\]' "$h"
T

test_case "--json: stdout is the result alone (one run), the outcomes go to stderr" <<'T'
expect_status 0 "$isolde" scenario lost-update sqlite --url "$tmp/j.db" -o "$tmp" --json
test "$(grep -c '^{' "$tmp/out")" = 1
expect_out '^{"valid?": *true,$'
if have_feature cadical; then expect_out '^ "models-checked": *\["serializable"\]}$'; else expect_out '^ "models-sound-only": *\["serializable"\]}$'; fi
expect_err '^scenario lost-update on sqlite at serializable: T1 ok'
T

test_case "--json with several runs: one result per line, each with its file" <<'T'
expect_status 0 "$isolde" scenario all sqlite --url "$tmp/j2.db" -o "$tmp" --json
test "$(wc -l <"$tmp/out")" = 5
# serializable is complete on list-append with CaDiCaL (the exact check), else sound only
if have_feature cadical; then expect_out '^{"file":".*isolde-G1c-serializable.jsonl", *"valid?": *true, *"models-checked": *\["serializable"\]}$'; else expect_out '^{"file":".*isolde-G1c-serializable.jsonl", *"valid?": *true, *"models-checked": *\["serializable"\], *"models-sound-only": *\["serializable"\]}$'; fi
T

test_case "a check option: -c read-committed is what the history is checked against" <<'T'
expect_status 0 "$isolde" scenario G1c sqlite --url "$tmp/c.db" -o "$tmp" -c read-committed
expect_out 'valid?: true'
T

test_case "--help lists every scenario with its anomaly and script" <<'T'
expect_status 0 "$isolde" scenario --help
expect_out '^  write-skew (G2-item)  *each reads both keys'
expect_out '^  *script: T1 begin; T2 begin; T1 r x'
expect_out '^  G1c (G1c) '
expect_out '^  read-skew (G-single-item) '
T

test_case "an unknown scenario, backend or level, and a backend without statements, are errors" <<'T'
expect_status 3 "$isolde" scenario write-skw sqlite --url "$tmp/e.db" -o "$tmp"
expect_err "unknown scenario 'write-skw'"
expect_status 3 "$isolde" scenario write-skew nosuch -o "$tmp"
expect_err "unknown backend 'nosuch'"
expect_status 3 "$isolde" scenario write-skew sqlite --url "$tmp/e.db" -i snapshot -o "$tmp"
expect_err "sqlite runs at serializable, not 'snapshot'"
expect_status 3 "$isolde" scenario write-skew sim -o "$tmp"
expect_err 'sim cannot run statement by statement'
expect_status 3 "$isolde" scenario write-skew
T

finish
