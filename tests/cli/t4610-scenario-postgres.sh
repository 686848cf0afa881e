#!/bin/sh
# `isolde scenario` and `isolde campaign` against a real PostgreSQL
# (tests/servers/postgres.sh; ISOLDE_PG_URL and ISOLDE_PG_PASSWORD say
# where), asserting PostgreSQL's documented answers in both directions.
# Scenarios (as Hermitage found them), each level checked against what the
# documentation promises (lib/run/promise.c): READ COMMITTED admits read skew
# (G-single-item), lost update and write skew (G2-item); REPEATABLE READ
# (snapshot isolation) prevents read skew and turns the second lost update
# into 40001, but admits write skew; SERIALIZABLE fails one side of write
# skew with 40001; no level admits a dirty write (G0) or G1c. Campaign, at
# its default run size: READ COMMITTED shows G-single-item and lost-update
# in every seed; REPEATABLE READ shows G2-item in every seed and never
# G-single or lost-update; SERIALIZABLE checks strict-serializable.
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^postgres:'; then
    [ "${CI:-}" = true ] && test_case "built with libpq" "false"
    test_skip "PostgreSQL scenarios" "built without libpq"
    finish
fi
need_server ISOLDE_PG_URL "PostgreSQL scenarios"
pw=$ISOLDE_PG_PASSWORD
url="postgresql://isolde:$pw@${ISOLDE_PG_URL#postgresql://isolde@}"
export url pw

# The report of one scenario at one level, from the output of them all.
section() { # NAME LEVEL
    awk -v h="scenario $1 on postgres at $2:" 'index($0, "scenario ") == 1 { on = index($0, h) == 1 } on' "$tmp/all.out"
}
# What the campaign found: "LEVEL WORKLOAD MODEL" -> "type:seeds ..." or "valid".
cell() { # LEVEL WORKLOAD MODEL
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    if r["level"] == sys.argv[2] and r["workload"] == sys.argv[3]:
        c = r["models"][sys.argv[4]]
        print(" ".join("%s:%d" % kv for kv in sorted(c["anomalies"].items())) or "valid")' "$tmp/camp.json" "$@"
}

"$isolde" scenario all postgres --url "$url" -o "$tmp" >"$tmp/all.out" 2>"$tmp/all.err"
echo $? >"$tmp/all.rc"

test_case "the scenarios ran at every level, each kept what PostgreSQL documents (exit 0), the password nowhere" <<'T'
test "$(cat "$tmp/all.rc")" = 0
test "$(grep -c '^scenario ' "$tmp/all.out")" = 20
test "$(grep -c '^promise: .*: kept$' "$tmp/all.out")" = 20
grep -q "^every level kept what postgres's documentation promises$" "$tmp/all.out"
test -z "$pw" || not grep -l -F "$pw" "$tmp/all.out" "$tmp/all.err" "$tmp"/isolde-*.jsonl
T

test_case "the run ends with the table of what each level did, and what each promises" <<'T'
grep -q '^| scenario | read-uncommitted | read-committed | repeatable-read | serializable |$' "$tmp/all.out"
grep -q '^| write-skew | G2-item | G2-item | G2-item | valid (40001) |$' "$tmp/all.out"
grep -q '^| read-skew | G-single-item | G-single-item | valid | valid |$' "$tmp/all.out"
grep -q '^| lost-update | [^|]*lost-update | [^|]*lost-update | valid (40001) | valid (40001) |$' "$tmp/all.out"
grep -q '^| dirty-write | valid | valid | valid[^|]* | valid[^|]* |$' "$tmp/all.out"
grep -q '^| G1c | G2-item | G2-item | G2-item | valid (40001) |$' "$tmp/all.out"
grep -q '^| promise | read-committed | read-committed | snapshot-isolation | serializable |$' "$tmp/all.out"
T

test_case "write skew: both commit at READ COMMITTED and REPEATABLE READ (G2-item); SERIALIZABLE fails one with 40001" <<'T'
for l in read-committed repeatable-read; do
    section write-skew $l | grep -q "T1 ok, T2 ok$"
    section write-skew $l | grep -q '; found: G2-item: kept$'
done
section write-skew serializable | grep -q 'fail (serialization-failure 40001'
section write-skew serializable | grep -q '; found: nothing: kept$'
T

test_case "read skew: G-single-item at READ COMMITTED, none at REPEATABLE READ or SERIALIZABLE" <<'T'
section read-skew read-committed | grep -q '; found: G-single-item: kept$'
section read-skew repeatable-read | grep -q '^promise: snapshot-isolation .*; found: nothing: kept$'
section read-skew serializable | grep -q '; found: nothing: kept$'
T

test_case "lost update: admitted at READ COMMITTED (T2 waits, then commits); 40001 at REPEATABLE READ and SERIALIZABLE" <<'T'
section lost-update read-committed | grep -q 'T2 ok after waiting on a lock$'
section lost-update read-committed | grep -q '^promise: read-committed .*; found: .*lost-update: kept$'
for l in repeatable-read serializable; do
    section lost-update $l | grep -q 'T2 fail after waiting on a lock (serialization-failure 40001'
    section lost-update $l | grep -q '; found: nothing: kept$'
done
T

test_case "dirty write and G1c: no level admits G0 or G1c" <<'T'
for l in read-uncommitted read-committed repeatable-read serializable; do
    section dirty-write $l | grep -q '; found: nothing: kept$'
    section G1c $l >"$tmp/g1c"
    not grep -q '^promise: .*found: .*G1c' "$tmp/g1c"
done
section G1c read-committed | grep -q '; found: G2-item: kept$'
T

test_case "with -c, each run is checked as -c says and the exit status is the check's" <<'T'
expect_status 1 "$isolde" scenario write-skew postgres --url "$url" -i read-committed -c serializable -o "$tmp/c"
expect_out '^anomaly-types: G2-item$'
expect_out '; found: G2-item: kept$'
T

"$isolde" campaign postgres --url "$url" --seeds 3 -i read-committed,repeatable-read,serializable --json \
    >"$tmp/camp.json" 2>"$tmp/camp.err"
echo $? >"$tmp/camp.rc"

test_case "campaign: every run made and checked, the password nowhere" <<'T'
test "$(cat "$tmp/camp.rc")" = 0
test -z "$pw" || not grep -l -F "$pw" "$tmp/camp.json" "$tmp/camp.err"
T

test_case "campaign READ COMMITTED: G-single-item and lost-update in every seed" <<'T'
cell read-committed list-append serializable | grep -q 'G-single-item:3'
cell read-committed list-append serializable | grep -q 'lost-update:3'
T

test_case "campaign REPEATABLE READ: G2-item in every seed, never G-single or lost-update; valid for snapshot-isolation" <<'T'
cell repeatable-read list-append serializable | grep -q 'G2-item:3'
for w in list-append rw-register; do
    cell repeatable-read $w serializable >"$tmp/cell"
    not grep -q 'G-single\|lost-update' "$tmp/cell"
    test "$(cell repeatable-read $w snapshot-isolation)" = valid
done
T

test_case "campaign SERIALIZABLE checks strict-serializable" <<'T'
test "$(cell serializable list-append strict-serializable)" = valid
test "$(cell serializable rw-register strict-serializable)" = valid
T

finish
