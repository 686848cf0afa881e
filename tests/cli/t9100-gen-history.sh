#!/bin/sh
# bench/gen_history against `isolde check`: valid histories are valid under
# every model and rw-register option, anomalous ones are invalid with the
# same anomaly types in JSON lines and EDN, and output is a pure function of
# the seed.
. tests/clilib.sh "$@"
gen=$build/bench/gen_history

types() { # file, then options: the sorted anomaly types isolde reports
    f=$1; shift
    "$isolde" check --json "$@" "$f" | tr -d '\n' | sed -n 's/.*"anomaly-types": *\(\[[^]]*\]\).*/\1/p'
}

test_case "gen_history is built" 'test -x "$gen"'

for m in list-append rw-register; do
    s=0
    for shape in "-s 1" "-s 2 -p 2 -k 1" "-s 3 -p 40 -k 20" "-s 4 -p 5 -k 3"; do
        s=$((s + 1))
        for fmt in jsonl edn; do
            v=$tmp/$m-$s-v.$fmt a=$tmp/$m-$s-a.$fmt
            test_case "$m $shape ($fmt): a valid history is strict-serializable" <<'T'
"$gen" -m $m -n 3000 -f $fmt $shape >"$v"
expect_status 0 "$isolde" check -m $m -c strict-serializable "$v"
T
            test_case "$m $shape ($fmt): an anomalous history is not strict-serializable" <<'T'
"$gen" -m $m -n 3000 -f $fmt -a $shape >"$a"
expect_status 1 "$isolde" check -m $m -c strict-serializable "$a"
T
        done
        test_case "$m $shape: the valid history is serializable and strong-session-snapshot-isolation" <<'T'
expect_status 0 "$isolde" check -m $m -c serializable,strong-session-snapshot-isolation "$tmp/$m-$s-v.jsonl"
T
        test_case "$m $shape: JSON lines and EDN of the anomalous history have the same anomaly types" <<'T'
t=$(types "$tmp/$m-$s-a.edn" -m $m)
test -n "$t"
test "$(types "$tmp/$m-$s-a.jsonl" -m $m)" = "$t"
T
    done
    test_case "$m -s 4 -p 5 -k 3: the anomalous history is not read-committed" <<'T'
expect_status 1 "$isolde" check -m $m -c read-committed "$tmp/$m-4-a.jsonl"
T
done

# rw-register version-order evidence never convicts a valid history.
"$gen" -m rw-register -n 5000 -s 11 >"$tmp/r.jsonl"
for o in --wfr-keys --sequential-keys --linearizable-keys; do
    test_case "rw-register $o never convicts a valid history" 'expect_status 0 "$isolde" check -m rw-register $o "$tmp/r.jsonl"'
done

test_case "gen_history: same arguments, same bytes" <<'T'
"$gen" -n 2000 -a -s 5 >"$tmp/x1"
"$gen" -n 2000 -a -s 5 >"$tmp/x2"
cmp "$tmp/x1" "$tmp/x2"
T

test_case "gen_history: another seed, other bytes" <<'T'
"$gen" -n 2000 -a -s 6 >"$tmp/x3"
not cmp -s "$tmp/x1" "$tmp/x3"
T

test_case "gen_history -n 2000 writes 2000 invocations" <<'T'
test "$(grep -c '"type":"invoke"' "$tmp/x1")" = 2000
T

# Bad arguments: usage, exit 2.
test_case "gen_history: an unknown workload is a usage error" 'expect_status 2 "$gen" -m bank'
test_case "gen_history: -p 0 is a usage error" 'expect_status 2 "$gen" -p 0'

finish
