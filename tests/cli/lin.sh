#!/bin/sh
# CLI tests of `isolde check -m <linearizability model>`: exit statuses for
# linearizable (0), not (1), out of budget (2) and bad input (3); the JSON
# witness; jepsen.log CAS semantics and --cas-fail; kv partitions; the
# Knossos corpus histories when ../shared is present. Exits 1 on failure.
. tests/clilib.sh "$@"

cat >"$tmp/bad.edn" <<'EOF'
{:type :invoke, :f :write, :value 0, :process 0}
{:type :ok, :f :write, :value 0, :process 0}
{:type :invoke, :f :read, :value nil, :process 1}
{:type :invoke, :f :write, :value 4, :process 2}
{:type :ok, :f :read, :value 3, :process 1}
{:type :ok, :f :write, :value 4, :process 2}
EOF
expect_status 1 "$isolde" check -m cas-register "$tmp/bad.edn"
expect_out 'NOT linearizable'
expect_out 'cannot read 3 when the state is'
expect_status 1 "$isolde" check --json -m register "$tmp/bad.edn"
expect_out '"valid?":false'
expect_out '"anomaly-types":\["nonlinearizable"\]'
expect_out '"op":{"process":1,"f":"read","value":3'

# The same ops, read 4 instead: linearizable; as JSON too.
sed 's/:value 3/:value 4/' "$tmp/bad.edn" >"$tmp/good.edn"
expect_status 0 "$isolde" check -m register "$tmp/good.edn"
expect_out 'linearizable'
expect_status 0 "$isolde" check --json -m register "$tmp/good.edn"
expect_out '"valid?":true'

# jepsen.log: a failed cas returned false (impossible here), unless --cas-fail noop.
printf 'INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n' >"$tmp/cas.log"
printf 'INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\nINFO  jepsen.util - 1\t:fail\t:cas\t[1 2]\n' >>"$tmp/cas.log"
printf 'INFO  jepsen.util - 3\t:invoke\t:read\tnil\nINFO  jepsen.util - 3\t:info\t:read\t:timed-out\n' >>"$tmp/cas.log"
expect_status 1 "$isolde" check -m cas-register "$tmp/cas.log"
expect_status 0 "$isolde" check -m cas-register --cas-fail noop "$tmp/cas.log"

# kv: one register per key; only key y is broken.
cat >"$tmp/kv.jsonl" <<'EOF'
{"type":"invoke","f":"write","value":["x",1],"process":0}
{"type":"ok","f":"write","value":["x",1],"process":0}
{"type":"invoke","f":"write","value":["y",2],"process":1}
{"type":"ok","f":"write","value":["y",2],"process":1}
{"type":"invoke","f":"read","value":["y",null],"process":1}
{"type":"ok","f":"read","value":["y",1],"process":1}
EOF
expect_status 1 "$isolde" check --json -m kv "$tmp/kv.jsonl"
expect_out '"nonlinearizable-partitions":1'
expect_out '"key":"y"'

# Mutex: two acquires in a row.
printf '{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n' >"$tmp/m.edn"
printf '{:type :invoke, :f :acquire, :process 1}\n{:type :ok, :f :acquire, :process 1}\n' >>"$tmp/m.edn"
expect_status 1 "$isolde" check -m mutex "$tmp/m.edn"

# Out of budget: 18 concurrent writes, then two reads no end state allows.
i=0
while [ $i -lt 18 ]; do echo "{:type :invoke, :f :write, :value $i, :process $i}"; i=$((i + 1)); done >"$tmp/hard.edn"
i=0
while [ $i -lt 18 ]; do echo "{:type :ok, :f :write, :value $i, :process $i}"; i=$((i + 1)); done >>"$tmp/hard.edn"
printf '{:type :invoke, :f :read, :process 99}\n{:type :ok, :f :read, :value 5, :process 99}\n' >>"$tmp/hard.edn"
printf '{:type :invoke, :f :read, :process 99}\n{:type :ok, :f :read, :value 3, :process 99}\n' >>"$tmp/hard.edn"
expect_status 2 "$isolde" check -m register --timeout 20 "$tmp/hard.edn"
expect_status 2 "$isolde" check --json -m register --timeout 20 "$tmp/hard.edn"
expect_out '"valid?":"unknown"'

# Errors with file:line:col.
printf '{:type :invoke, :f :write, :value 1, :process 0}\n  {:type :invoke, :f :frob, :process 1}\n' >"$tmp/e.edn"
expect_status 3 "$isolde" check -m register "$tmp/e.edn"
grep -q "e.edn:2:3:" "$tmp/err" && ok || { bad "error lacks e.edn:2:3"; cat "$tmp/err"; }

# The Knossos corpus, with elle-cli's verdicts.
shared=${ISOLDE_SHARED:-../shared}
k=$shared/corpus/elle/ligurio-elle-cli/histories/knossos
if [ -d "$k" ]; then
    for f in "$k"/cas-register/bad/*; do expect_status 1 "$isolde" check -m cas-register "$f"; done
    for f in "$k"/cas-register/good/*; do expect_status 0 "$isolde" check -m cas-register "$f"; done
    for f in "$k"/mutex/bad/*; do expect_status 1 "$isolde" check -m mutex "$f"; done
elif [ "${CI:-}" = true ]; then
    bad "CI=true but $k is missing"
fi

# A read of nil after a completed write of 3 is stale (docs/DEVIATIONS.md).
printf '{:type :invoke, :f :write, :value 3, :process 0}\n{:type :ok, :f :write, :value 3, :process 0}\n{:type :invoke, :f :read, :value nil, :process 1}\n{:type :ok, :f :read, :value nil, :process 1}\n' >"$tmp/nilread.edn"
expect_status 1 "$isolde" check -m register "$tmp/nilread.edn"
printf '{:type :invoke, :f :read, :value nil, :process 1}\n{:type :ok, :f :read, :value nil, :process 1}\n{:type :invoke, :f :write, :value 3, :process 0}\n{:type :ok, :f :write, :value 3, :process 0}\n' >"$tmp/nilfirst.edn"
expect_status 0 "$isolde" check -m register "$tmp/nilfirst.edn"

finish "lin"
