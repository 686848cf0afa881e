#!/bin/sh
# isolde shrink: the smallest history that still shows an anomaly. On the
# sim's histories at weak levels (list-append and rw-register), an EDN
# case and Elle's JSON lines: the result re-checks alone as its header
# says (tests/tools/case.c runs the header: the options, exit 1, the exact
# types), it is 1-minimal (tests/tools/one_less.py leaves out each
# transaction in turn: the type goes, or a new type comes), and it keeps a
# few ops per transaction. On a kv history with a stale read, the op that
# cannot be linearized is the original's (not a read whose write was left
# out). A valid history, a type it does not have, a
# format of no lines: nothing written. A time limit: a history that
# re-checks, said not minimal.
. tests/clilib.sh "$@"

one_less=tests/tools/one_less.py

# LEVEL WORKLOAD SEED N FILE: a sim history, checked by none.
sim() { "$isolde" run sim -i "$1" -m "$2" --seed "$3" -n "$4" -c '' -o "$5" >/dev/null 2>&1 || [ $? = 2 ]; }

# FILE OPTIONS...: shrink FILE, then the result's header holds and no
# transaction of it can go.
shrunk_holds() {
    f=$1; shift
    expect_status 0 "$isolde" shrink "$@" "$f" -o "$tmp/out"
    expect_err 'kept in [0-9]* of [0-9]* ops'
    grep -q '^[#;] [^ ]*: isolde shrink of .*1-minimal' "$tmp/out"
    "$casetool" check "$isolde" "$tmp/out"
    python3 "$one_less" "$isolde" "$tmp/out" "$@"
}

for row in "read-uncommitted list-append 5 3000 serializable" "read-committed list-append 3 2000 serializable" \
           "snapshot-isolation list-append 5 3000 serializable" "read-committed rw-register 2 2000 serializable" \
           "read-uncommitted list-append 5 3000 read-committed"; do
    set -- $row
    test_case "shrink: sim $1 $2 (seed $3), checked at $5: re-checks as its header says, 1-minimal" <<T
sim $1 $2 $3 $4 "\$tmp/h.jsonl"
shrunk_holds "\$tmp/h.jsonl" -c $5
T
done

test_case "shrink: at most 4 ops per transaction kept (a transaction is 2), read-uncommitted seed 5" <<'T'
sim read-uncommitted list-append 5 3000 "$tmp/h.jsonl"
"$isolde" shrink -c serializable "$tmp/h.jsonl" -o "$tmp/out" 2>/dev/null
ops=$(grep -vc '^#' "$tmp/out")
txns=$(sed -n 's/.*(\([0-9]*\) of [0-9]* transactions.*/\1/p' "$tmp/out")
[ "$ops" -le $((4 * txns)) ]
[ "$txns" -le 30 ]
T

test_case "shrink: micro-ops no anomaly needs are left out of the transactions kept (rewritten lines re-check)" <<'T'
sim read-committed list-append 3 2000 "$tmp/h.jsonl"
"$isolde" shrink -c serializable "$tmp/h.jsonl" -o "$tmp/out" 2>/dev/null
lines=$(grep -v '^#' "$tmp/out" | sed 's/.*"index":\([0-9]*\),.*/\1/')
for i in $lines; do
    grep -q "\"index\":$i," "$tmp/h.jsonl"
done
[ "$(grep -v '^#' "$tmp/out" | grep -o '\["[ar][a-z]*",' | wc -l)" -lt "$(for i in $lines; do grep "\"index\":$i," "$tmp/h.jsonl"; done | grep -o '\["[ar][a-z]*",' | wc -l)" ]
"$casetool" check "$isolde" "$tmp/out"
T

test_case "shrink: an EDN history with its own header options (tests/data/list_append/g2-item.edn)" <<'T'
shrunk_holds tests/data/list_append/g2-item.edn -m list-append -c serializable
grep -q '^; types: G2-item$' "$tmp/out"
[ "$(grep -vc '^;' "$tmp/out")" = 2 ]
T

test_case "shrink, linearizability (kv with a stale read): the op that cannot be linearized stays the same" <<'T'
"$build/bench/gen_lin" kv 2000 3 4 1 jsonl 30 1 >"$tmp/kv.jsonl"
want=$("$isolde" check -m kv --json "$tmp/kv.jsonl" | sed 's/.*"nonlinearizable":\[{.*"op":{[^}]*"index":\([0-9]*\),.*/\1/')
shrunk_holds "$tmp/kv.jsonl" -m kv
got=$("$isolde" check -m kv --json "$tmp/out" | sed 's/.*"nonlinearizable":\[{.*"op":{[^}]*"index":\([0-9]*\),.*/\1/')
[ "$want" = "$got" ]
[ "$(grep -vc '^#' "$tmp/out")" -le 6 ]
T

test_case "shrink --anomaly TYPE keeps that type" <<'T'
sim read-committed list-append 3 2000 "$tmp/h.jsonl"
expect_status 0 "$isolde" shrink -c serializable --anomaly lost-update "$tmp/h.jsonl" -o "$tmp/out"
grep -q '^# lost-update: isolde shrink of' "$tmp/out"
grep -q '^# types: .*lost-update' "$tmp/out"
"$casetool" check "$isolde" "$tmp/out"
T

test_case "shrink: a valid history has nothing to shrink (exit 1, nothing written)" <<'T'
expect_status 1 "$isolde" shrink examples/valid.jsonl -o "$tmp/none"
expect_err 'no anomaly under these options: nothing to shrink'
[ ! -e "$tmp/none" ]
T

test_case "shrink --anomaly of a type the history does not have: exit 1" <<'T'
expect_status 1 "$isolde" shrink -m list-append -c serializable --anomaly G1a tests/data/list_append/g2-item.edn
expect_err 'no such anomaly'
T

test_case "shrink: a history of no lines (elle-cli's JSON array) is an error, exit 3" <<'T'
expect_status 3 "$isolde" shrink examples/g1c.json
expect_err 'shrink reads EDN or JSON lines histories of one op per line'
T

test_case "shrink --time-limit: what was found by then, said not minimal, still re-checks" <<'T'
sim read-committed list-append 5 3000 "$tmp/h.jsonl"
expect_status 0 "$isolde" shrink -c serializable --time-limit 0.05 "$tmp/h.jsonl" -o "$tmp/out"
expect_err 'not minimal (time limit)'
grep -q 'not minimal: the time limit came first' "$tmp/out"
"$casetool" check "$isolde" "$tmp/out"
T

finish
