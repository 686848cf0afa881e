#!/bin/sh
# Integers of any size through `isolde check` (tests/fixtures/read/ints):
# processes past 2^59 are clients, :time keeps Unix-epoch nanoseconds, and
# keys and elements at and past the 64-bit limits are kept exactly in every
# reader (EDN, JSON, JSON lines, history.txt, jepsen.log, OneLite), in the
# verdict and in the proof.
. tests/clilib.sh "$@"
d=tests/fixtures/read/ints

test_case "processes of 2^59 and 10^20 are clients: their appends are read, no garbage read" <<'T'
expect_status 0 "$isolde" check "$d/big-process.edn"
expect_out '^valid?: true'
T

test_case "Unix-epoch nanosecond times (tipocket's) are read" <<'T'
expect_status 0 "$isolde" check "$d/epoch-ns.edn"
T

for f in extremes.edn extremes.json extremes.jsonl extremes.txt extremes.log extremes-onelite.jsonl; do
    test_case "$f: 64-bit extremes and beyond are distinct keys, kept exactly" <<'T'
expect_status 1 "$isolde" check --json "$d/$f"
tr -d '\n' < "$tmp/out" | grep -q '"anomaly-types":\["G1a"\]'
expect_status 1 "$isolde" check "$d/$f"
expect_out 'T1 read key 99999999999999999999 = \[-9223372036854775809\], which includes -9223372036854775809'
expect_out '\[:r -9223372036854775808 \[9223372036854775807\]\] \[:r -9223372036854775809 \[9223372036854775808\]\]'
expect_out '\[:r 9999999999999999999 \[\]\]'
T
done

finish
