#!/bin/sh
# CLI tests of bench/gen_history against `isolde check`: valid histories are
# valid under every model and rw-register option, anomalous ones are invalid
# with the same anomaly types in JSON lines and EDN, and output is a pure
# function of the seed. Exits 1 on any failure.
. tests/clilib.sh "$@"
gen=$build/bench/gen_history
[ -x "$gen" ] || { echo "FAIL: $gen missing (make tests builds it)"; exit 1; }


types() { # file, then options: the sorted anomaly types isolde reports
    f=$1; shift
    "$isolde" check --json "$@" "$f" | tr -d '\n' | sed -n 's/.*"anomaly-types": *\(\[[^]]*\]\).*/\1/p'
}

for m in list-append rw-register; do
    for shape in "-s 1" "-s 2 -p 2 -k 1" "-s 3 -p 40 -k 20" "-s 4 -p 5 -k 3"; do
        for fmt in jsonl edn; do
            "$gen" -m $m -n 3000 -f $fmt $shape > "$tmp/v.$fmt"
            "$gen" -m $m -n 3000 -f $fmt -a $shape > "$tmp/a.$fmt"
            expect_status 0 "$isolde" check -m $m -c strict-serializable "$tmp/v.$fmt"
            expect_status 1 "$isolde" check -m $m -c strict-serializable "$tmp/a.$fmt"
        done
        expect_status 0 "$isolde" check -m $m -c serializable,strong-session-snapshot-isolation "$tmp/v.jsonl"
        t=$(types "$tmp/a.edn" -m $m)
        if [ -n "$t" ] && [ "$(types "$tmp/a.jsonl" -m $m)" = "$t" ]; then ok
        else bad "$m $shape: JSON lines and EDN of one anomalous history disagree"; fi
    done
    expect_status 1 "$isolde" check -m $m -c read-committed "$tmp/a.jsonl"
done

# rw-register version-order evidence never convicts a valid history.
"$gen" -m rw-register -n 5000 -s 11 > "$tmp/r.jsonl"
for o in --wfr-keys --sequential-keys --linearizable-keys; do
    expect_status 0 "$isolde" check -m rw-register $o "$tmp/r.jsonl"
done

# Same arguments, same bytes; another seed, other bytes.
"$gen" -n 2000 -a -s 5 > "$tmp/x1"; "$gen" -n 2000 -a -s 5 > "$tmp/x2"; "$gen" -n 2000 -a -s 6 > "$tmp/x3"
cmp -s "$tmp/x1" "$tmp/x2" && ok || bad "gen_history is not deterministic per seed"
cmp -s "$tmp/x1" "$tmp/x3" && bad "different seeds gave the same history" || ok
[ "$(grep -c '"type":"invoke"' "$tmp/x1")" = 2000 ] && ok || bad "-n 2000 did not write 2000 invocations"

# Bad arguments: usage, exit 2.
expect_status 2 "$gen" -m bank
expect_status 2 "$gen" -p 0

finish "gen_history"
