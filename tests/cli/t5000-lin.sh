#!/bin/sh
# `isolde check -m <linearizability model>`: exit statuses for linearizable
# (0), not (1), out of budget (2) and bad input (3); the JSON witness;
# jepsen.log CAS semantics and --cas-fail; kv partitions; mutexes; stale nil
# reads; the Knossos corpus histories when $ISOLDE_SHARED (../shared) has
# them.
. tests/clilib.sh "$@"

cat >"$tmp/bad.edn" <<'EOF'
{:type :invoke, :f :write, :value 0, :process 0}
{:type :ok, :f :write, :value 0, :process 0}
{:type :invoke, :f :read, :value nil, :process 1}
{:type :invoke, :f :write, :value 4, :process 2}
{:type :ok, :f :read, :value 3, :process 1}
{:type :ok, :f :write, :value 4, :process 2}
EOF
# The same ops, read 4 instead: linearizable.
sed 's/:value 3/:value 4/' "$tmp/bad.edn" >"$tmp/good.edn"

# jepsen.log: a failed cas returned false (impossible here), unless --cas-fail noop.
printf 'INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n' >"$tmp/cas.log"
printf 'INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\nINFO  jepsen.util - 1\t:fail\t:cas\t[1 2]\n' >>"$tmp/cas.log"
printf 'INFO  jepsen.util - 3\t:invoke\t:read\tnil\nINFO  jepsen.util - 3\t:info\t:read\t:timed-out\n' >>"$tmp/cas.log"

# kv: one register per key; only key y is broken.
cat >"$tmp/kv.jsonl" <<'EOF'
{"type":"invoke","f":"write","value":["x",1],"process":0}
{"type":"ok","f":"write","value":["x",1],"process":0}
{"type":"invoke","f":"write","value":["y",2],"process":1}
{"type":"ok","f":"write","value":["y",2],"process":1}
{"type":"invoke","f":"read","value":["y",null],"process":1}
{"type":"ok","f":"read","value":["y",1],"process":1}
EOF

# Mutex: two acquires in a row.
printf '{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n' >"$tmp/m.edn"
printf '{:type :invoke, :f :acquire, :process 1}\n{:type :ok, :f :acquire, :process 1}\n' >>"$tmp/m.edn"

# Out of budget: 18 concurrent writes and a read among them, then two reads
# no end state allows (writes alone would need no search: linear/lin_writes.c).
i=0
while [ $i -lt 18 ]; do echo "{:type :invoke, :f :write, :value $i, :process $i}"; i=$((i + 1)); done >"$tmp/hard.edn"
echo '{:type :invoke, :f :read, :process 98}' >>"$tmp/hard.edn"
i=0
while [ $i -lt 18 ]; do echo "{:type :ok, :f :write, :value $i, :process $i}"; i=$((i + 1)); done >>"$tmp/hard.edn"
echo '{:type :ok, :f :read, :value 7, :process 98}' >>"$tmp/hard.edn"
printf '{:type :invoke, :f :read, :process 99}\n{:type :ok, :f :read, :value 5, :process 99}\n' >>"$tmp/hard.edn"
printf '{:type :invoke, :f :read, :process 99}\n{:type :ok, :f :read, :value 3, :process 99}\n' >>"$tmp/hard.edn"

# An op the model does not know, on line 2, column 3.
printf '{:type :invoke, :f :write, :value 1, :process 0}\n  {:type :invoke, :f :frob, :process 1}\n' >"$tmp/e.edn"

# A read of nil after a completed write of 3 is stale (docs/DEVIATIONS.md);
# before the write it is not.
printf '{:type :invoke, :f :write, :value 3, :process 0}\n{:type :ok, :f :write, :value 3, :process 0}\n{:type :invoke, :f :read, :value nil, :process 1}\n{:type :ok, :f :read, :value nil, :process 1}\n' >"$tmp/nilread.edn"
printf '{:type :invoke, :f :read, :value nil, :process 1}\n{:type :ok, :f :read, :value nil, :process 1}\n{:type :invoke, :f :write, :value 3, :process 0}\n{:type :ok, :f :write, :value 3, :process 0}\n' >"$tmp/nilfirst.edn"

test_case "a read of a value never written is not linearizable, with the reason" <<'T'
expect_status 1 "$isolde" check -m cas-register "$tmp/bad.edn"
expect_out 'NOT linearizable'
expect_out 'cannot read 3 when the state is'
T

test_case "the JSON of a nonlinearizable history names the anomaly and the op" <<'T'
expect_status 1 "$isolde" check --json -m register "$tmp/bad.edn"
expect_out '"valid?":false'
expect_out '"anomaly-types":\["nonlinearizable"\]'
expect_out '"op":{"process":1,"f":"read","value":3'
expect_out '"not":\["linearizable"\]'
T

test_case "the same ops reading 4 are linearizable" <<'T'
expect_status 0 "$isolde" check -m register "$tmp/good.edn"
expect_out 'linearizable'
T

test_case "the same ops reading 4 are linearizable (JSON)" <<'T'
expect_status 0 "$isolde" check --json -m register "$tmp/good.edn"
expect_out '"valid?":true'
not grep -q '"not"' "$tmp/out"
T

test_case "jepsen.log: a failed cas returned false, which is impossible here" <<'T'
expect_status 1 "$isolde" check -m cas-register "$tmp/cas.log"
T

test_case "jepsen.log: with --cas-fail noop the failed cas did nothing" <<'T'
expect_status 0 "$isolde" check -m cas-register --cas-fail noop "$tmp/cas.log"
T

test_case "kv: one register per key, only key y is nonlinearizable (JSON)" <<'T'
expect_status 1 "$isolde" check --json -m kv "$tmp/kv.jsonl"
expect_out '"nonlinearizable-partitions":1'
expect_out '"key":"y"'
T

test_case "mutex: two acquires in a row are not linearizable" <<'T'
expect_status 1 "$isolde" check -m mutex "$tmp/m.edn"
T

test_case "out of budget (--timeout 20) is unknown, never a guess" <<'T'
expect_status 2 "$isolde" check -m register --timeout 20 "$tmp/hard.edn"
T

test_case "out of budget is unknown in JSON too" <<'T'
expect_status 2 "$isolde" check --json -m register --timeout 20 "$tmp/hard.edn"
expect_out '"valid?":"unknown"'
T

test_case "an op the model does not know is an error at file:line:col" <<'T'
expect_status 3 "$isolde" check -m register "$tmp/e.edn"
expect_err "e.edn:2:3:"
T

test_case "a nil read after a completed write is stale: not linearizable" <<'T'
expect_status 1 "$isolde" check -m register "$tmp/nilread.edn"
T

test_case "a nil read before the write is linearizable" <<'T'
expect_status 0 "$isolde" check -m register "$tmp/nilfirst.edn"
T

# The Knossos corpus, with elle-cli's verdicts.
shared=${ISOLDE_SHARED:-../shared}
k=$shared/corpus/elle/ligurio-elle-cli/histories/knossos
if [ -d "$k" ]; then
    for f in "$k"/cas-register/bad/*; do
        test_case "Knossos cas-register/bad/$(basename "$f") is not linearizable" 'expect_status 1 "$isolde" check -m cas-register "$f"'
    done
    for f in "$k"/cas-register/good/*; do
        test_case "Knossos cas-register/good/$(basename "$f") is linearizable" 'expect_status 0 "$isolde" check -m cas-register "$f"'
    done
    for f in "$k"/mutex/bad/*; do
        test_case "Knossos mutex/bad/$(basename "$f") is not linearizable" 'expect_status 1 "$isolde" check -m mutex "$f"'
    done
elif [ "${CI:-}" = true ]; then
    test_case "CI=true has the Knossos corpus" 'echo "missing: $k"; false'
else
    test_skip "the Knossos corpus histories" "$k not found"
fi

finish
