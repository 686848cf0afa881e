#!/bin/sh
# Linearizability models and options of issue 11: --initial-value (item 11),
# Knossos's multi-register and Porcupine's kv (item 12), the model inferred
# from the :f names (item 14), and the default time budget (item 10). The
# fixtures are tests/fixtures/lin/; Porcupine's own 6.824 files and Knossos's
# multi-register history are checked when $ISOLDE_SHARED has them.
. tests/clilib.sh "$@"
fx=tests/fixtures/lin

# A store that answers 0 for a key never written: a read of 0 before any write.
printf '{:type :invoke, :f :read, :process 0}\n{:type :ok, :f :read, :value 0, :process 0}\n' >"$tmp/zero.edn"
printf '{:type :invoke, :f :write, :value 1, :process 1}\n{:type :ok, :f :write, :value 1, :process 1}\n' >>"$tmp/zero.edn"
printf '{:type :invoke, :f :cas, :value [1 2], :process 0}\n{:type :ok, :f :cas, :value [1 2], :process 0}\n' >>"$tmp/zero.edn"
# kv (Jepsen's independent keys) in JSON: key "x" reads 0 first, key "y" reads 5.
cat >"$tmp/kv.jsonl" <<'EOF'
{"type":"invoke","f":"read","value":["x",null],"process":0}
{"type":"ok","f":"read","value":["x",0],"process":0}
{"type":"invoke","f":"read","value":["y",null],"process":0}
{"type":"ok","f":"read","value":["y",5],"process":0}
{"type":"invoke","f":"write","value":["y",6],"process":1}
{"type":"ok","f":"write","value":["y",6],"process":1}
EOF
# Porcupine's shape in JSON lines: the key in "key".
cat >"$tmp/porcupine.jsonl" <<'EOF'
{"process":0,"type":"invoke","f":"append","key":"k","value":"ab"}
{"process":0,"type":"ok","f":"append","key":"k","value":"ab"}
{"process":1,"type":"invoke","f":"get","key":"k","value":null}
{"process":1,"type":"ok","f":"get","key":"k","value":"ab"}
EOF
# A register, a cas-register and a mutex history with no -m.
printf '{:type :invoke, :f :write, :value 3, :process 0}\n{:type :ok, :f :write, :value 3, :process 0}\n' >"$tmp/reg.edn"
printf '{:type :invoke, :f :read, :process 1}\n{:type :ok, :f :read, :value 3, :process 1}\n' >>"$tmp/reg.edn"
cat "$tmp/reg.edn" >"$tmp/cas.edn"
printf '{:type :invoke, :f :cas, :value [3 4], :process 1}\n{:type :ok, :f :cas, :value [3 4], :process 1}\n' >>"$tmp/cas.edn"
printf '{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n' >"$tmp/mutex.edn"
printf '{:type :invoke, :f :frob, :value 1, :process 0}\n{:type :ok, :f :frob, :value 1, :process 0}\n' >"$tmp/frob.edn"
printf '{:type :invoke, :f :read, :process 0}\n{:type :ok, :f :read, :value {0 10, 1 10}, :process 0}\n' >"$tmp/reads.edn"
printf '{:type :invoke, :f :read, :process 0}\n{:type :ok, :f :read, :value 1, :process 0}\n' >"$tmp/mixed.edn"
printf '{:type :invoke, :f :acquire, :process 1}\n{:type :ok, :f :acquire, :process 1}\n' >>"$tmp/mixed.edn"
# Hard: 22 mutually concurrent writes and a read among them, then two reads
# no end state allows (writes alone would need no search: linear/lin_writes.c).
i=0
while [ $i -lt 22 ]; do echo "{:type :invoke, :f :write, :value $i, :process $i}"; i=$((i + 1)); done >"$tmp/hard.edn"
echo '{:type :invoke, :f :read, :process 98}' >>"$tmp/hard.edn"
i=0
while [ $i -lt 22 ]; do echo "{:type :ok, :f :write, :value $i, :process $i}"; i=$((i + 1)); done >>"$tmp/hard.edn"
echo '{:type :ok, :f :read, :value 7, :process 98}' >>"$tmp/hard.edn"
printf '{:type :invoke, :f :read, :process 99}\n{:type :ok, :f :read, :value 5, :process 99}\n' >>"$tmp/hard.edn"
printf '{:type :invoke, :f :read, :process 99}\n{:type :ok, :f :read, :value 3, :process 99}\n' >>"$tmp/hard.edn"

# ---- --initial-value (item 11) ----

test_case "a read of 0 before any write is not linearizable from nil" <<'T'
expect_status 1 "$isolde" check -m cas-register "$tmp/zero.edn"
expect_out 'cannot read 0 when the state is nil'
T

test_case "--initial-value 0 (Knossos's (cas-register 0)): linearizable" <<'T'
expect_status 0 "$isolde" check -m cas-register --initial-value 0 "$tmp/zero.edn"
T

test_case "--initial-value names the state a witness starts from" <<'T'
expect_status 1 "$isolde" check -m cas-register --initial-value 7 "$tmp/zero.edn"
expect_out 'from state 7, no op can go first'
expect_out 'cannot read 0 when the state is 7'
T

test_case "kv: --initial-value V is every key's first value" <<'T'
expect_status 1 "$isolde" check -m kv --initial-value 0 "$tmp/kv.jsonl"
expect_out '1 partition not linearizable'
expect_out 'key "y"'
T

test_case "kv: --initial-value {key value} per key (JSON, as the history)" <<'T'
expect_status 0 "$isolde" check -m kv --initial-value '{"x": 0, "y": 5}' "$tmp/kv.jsonl"
T

test_case "kv: keys the map lacks start at nil" <<'T'
expect_status 1 "$isolde" check --json -m kv --initial-value '{"y": 5}' "$tmp/kv.jsonl"
expect_out '"key":"x"'
T

test_case "--initial-value that does not parse is an error naming the option" <<'T'
expect_status 3 "$isolde" check -m register --initial-value '[1 2' "$tmp/reg.edn"
expect_err '^--initial-value:1:'
T

test_case "--initial-value on a model without registers is an error" <<'T'
expect_status 3 "$isolde" check -m mutex --initial-value 0 "$tmp/mutex.edn"
expect_err 'initial-value is for the register models'
T

# ---- multi-register and porcupine-kv (item 12) ----

test_case "multi-register: reads of 0 never written, from nil" <<'T'
expect_status 1 "$isolde" check -m multi-register "$fx/multi-register.edn"
expect_out 'from state {:x nil, :y nil}'
T

test_case "multi-register: from {:x 0 :y 0}, linearizable (inferred from the micro-ops)" <<'T'
expect_status 0 "$isolde" check --initial-value '{:x 0 :y 0}' "$fx/multi-register.edn"
expect_out '^multi-register: linearizable'
T

test_case "multi-register: a read of x and y inside a write of both is torn" <<'T'
expect_status 1 "$isolde" check -m multi-register --initial-value '{:x 0 :y 0}' "$fx/multi-register-torn.edn"
expect_out 'cannot run when the state is {:x 1, :y 1}'
T

test_case "porcupine-kv: Porcupine's 6.824 shape, linearizable (inferred)" <<'T'
expect_status 0 "$isolde" check "$fx/porcupine-ok.txt"
expect_out '^porcupine-kv: linearizable'
expect_out '6 ops in 2 partitions'
T

test_case "porcupine-kv: a get of \"yx\" after put x / append y is not linearizable" <<'T'
expect_status 1 "$isolde" check -m porcupine-kv "$fx/porcupine-bad.txt"
expect_out 'key "a"'
expect_out 'cannot get \["a" "yx"\]'
T

test_case "porcupine-kv: a key starts at \"\"; --initial-value per key" <<'T'
expect_status 1 "$isolde" check -m porcupine-kv --initial-value '{"b" "q"}' "$fx/porcupine-ok.txt"
expect_out 'key "b"'
expect_out 'from state "q"'
T

test_case "porcupine-kv: JSON lines with a \"key\" field" <<'T'
expect_status 0 "$isolde" check "$tmp/porcupine.jsonl"
expect_out '^porcupine-kv: linearizable'
T

shared=${ISOLDE_SHARED:-../shared}
pk=$shared/corpus/porcupine/kv
if [ -d "$pk" ]; then
    for f in "$pk"/*-ok.txt; do
        test_case "Porcupine $(basename "$f") is linearizable" 'expect_status 0 "$isolde" check -m porcupine-kv "$f"'
    done
    for f in "$pk"/c01-bad.txt "$pk"/c10-bad.txt; do
        test_case "Porcupine $(basename "$f") is not linearizable" 'expect_status 1 "$isolde" check -m porcupine-kv "$f"'
    done
else
    test_skip "Porcupine's 6.824 kv histories" "$pk not found"
fi

# ---- the model from the history (item 14) ----

test_case "read / write ops without -m are checked as a register" <<'T'
expect_status 0 "$isolde" check "$tmp/reg.edn"
expect_out '^register: linearizable'
T

test_case "read / write / cas ops without -m are checked as a cas-register" <<'T'
expect_status 0 "$isolde" check "$tmp/cas.edn"
expect_out '^cas-register: linearizable'
T

test_case "[key value] values without -m are checked as kv" <<'T'
expect_status 1 "$isolde" check "$tmp/kv.jsonl"
expect_out '^kv: NOT linearizable'
T

test_case "acquire / release without -m is a mutex" <<'T'
expect_status 0 "$isolde" check "$tmp/mutex.edn"
expect_out '^mutex: linearizable'
T

test_case "unknown :f names: an error that says which -m to give" <<'T'
expect_status 3 "$isolde" check "$tmp/frob.edn"
expect_err "cannot tell the model from the ops' :f (:frob): no model isolde checks has :frob; -m names one: list-append"
not grep -q 'vector of micro-ops' "$tmp/err"
T

test_case "reads alone (a Jepsen bank's map reads) are no register: an error, no verdict" <<'T'
expect_status 3 "$isolde" check "$tmp/reads.edn"
expect_err "(:read): give -m, e.g. register, cas-register, kv, set, set-full, counter, lin-set, bank"
T

test_case "mixed :f names: the models each name belongs to" <<'T'
expect_status 3 "$isolde" check "$tmp/mixed.edn"
expect_err "(:read, :acquire): give -m, e.g. register, cas-register, kv, set, set-full, counter, lin-set, bank, mutex"
T

# ---- the time budget (item 10) ----

test_case "the default time budget is 60 s, and JSON says it" <<'T'
expect_status 0 "$isolde" check --json "$tmp/reg.edn"
expect_out '"timeout-ms":60000'
T

test_case "--timeout 0 checks without a budget" <<'T'
expect_status 0 "$isolde" check --json --timeout 0 "$tmp/reg.edn"
expect_out '"timeout-ms":null'
T

test_case "22 concurrent writes and a read: a small budget ends in unknown, saying it ran out" <<'T'
expect_status 2 "$isolde" check -m register --timeout 50 "$tmp/hard.edn"
expect_out '^register: unknown'
expect_out 'the time budget of 50 ms ran out (--timeout MS sets it; 0 for none)'
T

test_case "22 concurrent writes alone need no search: not linearizable within 50 ms of budget" <<'T'
grep -v ':process 98}' "$tmp/hard.edn" > "$tmp/writes.edn"
expect_status 1 "$isolde" check -m register --timeout 50 "$tmp/writes.edn"
expect_out '^register: NOT linearizable'
expect_out 'cannot read 3 when the state is 5'
T

finish
