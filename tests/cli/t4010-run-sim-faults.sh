#!/bin/sh
# The simulated database under its nemesis, known answers with no server,
# over 20 seeds each: a crash (every active transaction fails, the
# database is down until the heal) leaves strict-serializable intact; a
# crash that loses acknowledged commits (--lose N, the broken mode) is
# caught; a partition (the odd clients' node serves reads from the
# snapshot it had, refuses writes) keeps serializable and breaks
# strict-serializable (stale reads). Faults are ops of process nemesis; the
# same seed gives the same history, faults and all.
. tests/clilib.sh "$@"
faults="--fault-every 0.0002 --fault-for 0.00005 -n 4000"
export faults

test_case "crashes: strict-serializable holds over 20 seeds" <<'T'
for s in $(seq 1 20); do expect_status 0 "$isolde" run sim --nemesis crash $faults --seed $s -o "$tmp/c$s.jsonl"; done
grep -q '"process":"nemesis","f":"crash","value":{"lost-commits":0}' "$tmp/c1.jsonl"
expect_out '^faults: [1-9]'
T

test_case "crashes that lose the last 3 acknowledged commits are caught over 20 seeds" <<'T'
for s in $(seq 1 20); do expect_status 1 "$isolde" run sim --nemesis crash --lose 3 $faults --seed $s -o "$tmp/l$s.jsonl"; done
grep -q '"f":"crash","value":{"lost-commits":3}' "$tmp/l1.jsonl"
T

test_case "partitions: serializable holds, strict-serializable does not (stale reads), over 20 seeds" <<'T'
for s in $(seq 1 20); do
    expect_status 0 "$isolde" run sim --nemesis partition --fault-every 0.0002 --fault-for 0.0001 -n 4000 --seed $s -c serializable -o "$tmp/p$s.jsonl"
    expect_status 1 "$isolde" check -c strict-serializable "$tmp/p$s.jsonl"
    expect_out 'realtime'
done
grep -q '"f":"start-partition","value":{"cut-off"' "$tmp/p1.jsonl"
grep -q '"f":"stop-partition","value":"healed"' "$tmp/p1.jsonl"
T

test_case "the same seed gives the same history, faults and all" <<'T'
"$isolde" run sim --nemesis crash,partition --lose 1 $faults --seed 7 -o "$tmp/a.jsonl" >/dev/null || true
"$isolde" run sim --nemesis crash,partition --lose 1 $faults --seed 7 -o "$tmp/b.jsonl" >/dev/null || true
cmp "$tmp/a.jsonl" "$tmp/b.jsonl"
T

test_case "a fault kind the sim has not is a usage error" <<'T'
expect_status 3 "$isolde" run sim --nemesis kill -n 10 -o "$tmp/x.jsonl"
expect_err "the sim's nemesis has partition and crash"
T

# A nemesis asked for that never fired is one line on stderr at the end,
# naming it and why (issue 23: `faults: 0` and nothing else said).
test_case "a sim run that ends before the first fault is due says so on stderr" <<'T'
expect_status 0 "$isolde" run sim --nemesis crash -n 2000 -o "$tmp/idle.jsonl"
expect_out '^faults: 0 (crash)$'
expect_err '^isolde run: warning: --nemesis crash never fired: the run ended after [0-9.e-]* s of simulated time, before its first fault was due at ~5 s (raise -n or lower --fault-every)$'
test "$(grep -c warning "$tmp/err")" = 1
T

test_case "a kind the draws never chose is named, and why" <<'T'
expect_status 0 "$isolde" run sim --nemesis crash,partition --fault-every 0.0003 --fault-for 0.0001 --seed 1 -o "$tmp/one.jsonl"
expect_out '^faults: 1 (crash,partition)$'
expect_err '^isolde run: warning: --nemesis partition never fired: each fault.s kind is drawn at random, and the run.s 1 fault drew another (a longer run draws more)$'
not grep -q 'crash never fired' "$tmp/err"
T

test_case "a nemesis that fired is not warned about" <<'T'
expect_status 0 "$isolde" run sim --nemesis crash $faults -o "$tmp/busy.jsonl"
expect_out '^faults: [1-9]'
not grep -q 'never fired' "$tmp/err"
T

finish
