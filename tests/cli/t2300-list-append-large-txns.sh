#!/bin/sh
# One very large read or transaction (tests/tools/large_txns.py): the
# checks per read and per transaction of list-append and rw-register take
# linear time, so each shape, at a size where comparing pairs took minutes,
# finishes under a CPU limit of 20 s with the right findings. Small
# histories pin the findings those checks make: which element, which read,
# which transactions, and the counts.
. tests/clilib.sh "$@"
gen=tests/tools/large_txns.py

# facts: $tmp/out (a --json report) as lines "types: A,B" and, for each
# finding of the kinds these checks make, "KIND FIELD=VALUE...".
facts() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("types: " + ",".join(d.get("anomaly-types", [])))
for kind, found in d.get("anomalies", {}).items():
    if kind not in ("duplicate-elements", "lost-update", "future-read", "internal", "G1b", "dirty-update",
                    "not-my-own-write", "not-my-last-write"):
        continue
    for f in found:
        parts = [kind]
        for k in ("mop", "element", "duplicates", "key", "value", "expected"):
            if k in f:
                parts.append("%s=%s" % (k, json.dumps(f[k], separators=(",", ":"))))
        if "values" in f:
            v = f["values"]
            parts.append("values=%d:%s..%s" % (len(v), json.dumps(v[:3], separators=(",", ":")), json.dumps(v[-2:], separators=(",", ":"))))
        if "txns" in f:
            parts.append("txns=%s" % ",".join(str(t["index"]) if isinstance(t, dict) else t for t in f["txns"]))
        print(" ".join(parts))
' "$tmp/out" >"$tmp/facts"
}

# fact PATTERN: $tmp/facts has a line matching it (grep -x -F).
fact() {
    grep -qxF -- "$1" "$tmp/facts" && return 0
    echo "no fact '$1' in:" >&2
    cut -c 1-300 "$tmp/facts" >&2
    return 1
}

# limited CMD...: CMD under a 20 s CPU limit (a quadratic check runs out).
limited() { (ulimit -t 20; exec "$@"); }

# big SHAPE N WORKLOAD WANT: the shape at size N, checked under the limit.
big() {
    python3 "$gen" "$1" "$2" >"$tmp/$1.edn"
    expect_status "$4" limited "$isolde" check --json -m "$3" "$tmp/$1.edn"
    facts
}

# ---- small histories: the findings themselves --------------------------------

printf '%s\n' \
 '{:index 0 :type :invoke :process 0 :f :txn :value [[:append 1 1] [:append 1 2] [:append 1 3]]}' \
 '{:index 1 :type :ok :process 0 :f :txn :value [[:append 1 1] [:append 1 2] [:append 1 3]]}' \
 '{:index 2 :type :invoke :process 1 :f :txn :value [[:r 1 nil]]}' \
 '{:index 3 :type :ok :process 1 :f :txn :value [[:r 1 [1 2 1 3 2 1]]]}' >"$tmp/dups.edn"
test_case "duplicate-elements: each repeated element once, in order of first appearance, with its count" <<'T'
expect_status 1 "$isolde" check --json -m list-append "$tmp/dups.edn"
facts
fact 'types: G-single-item,G1b,duplicate-elements'
fact 'duplicate-elements mop=["r",1,[1,2,1,3,2,1]] duplicates={"1":3,"2":2}'
T

printf '%s\n' \
 '{:index 0 :type :invoke :process 0 :f :txn :value [[:append 1 0]]}' \
 '{:index 1 :type :ok :process 0 :f :txn :value [[:append 1 0]]}' \
 '{:index 2 :type :invoke :process 1 :f :txn :value [[:r 1 nil] [:append 1 1] [:append 1 2] [:r 1 nil] [:append 1 3]]}' \
 '{:index 3 :type :invoke :process 2 :f :txn :value [[:append 2 5] [:r 1 nil] [:append 1 10] [:append 1 11] [:append 1 12]]}' \
 '{:index 4 :type :ok :process 1 :f :txn :value [[:r 1 [0]] [:append 1 1] [:append 1 2] [:r 1 [0 1 2]] [:append 1 3]]}' \
 '{:index 5 :type :ok :process 2 :f :txn :value [[:append 2 5] [:r 1 [0]] [:append 1 10] [:append 1 11] [:append 1 12]]}' >"$tmp/lost.edn"
test_case "lost-update: first reads of one version, each followed by several appends, make one group" <<'T'
expect_status 1 "$isolde" check --json -m list-append "$tmp/lost.edn"
facts
fact 'types: G-single-item,lost-update'
fact 'lost-update key=1 value=[0] txns=4,5'
test "$(grep -c '^lost-update' "$tmp/facts")" = 1
T

printf '%s\n' \
 '{:index 0 :type :invoke :process 0 :f :txn :value [[:append 1 0]]}' \
 '{:index 1 :type :ok :process 0 :f :txn :value [[:append 1 0]]}' \
 '{:index 2 :type :invoke :process 1 :f :txn :value [[:r 2 nil] [:r 1 nil] [:r 1 nil] [:r 1 nil] [:append 1 8] [:append 1 7]]}' \
 '{:index 3 :type :ok :process 1 :f :txn :value [[:r 2 [9]] [:r 1 [0 7]] [:r 1 [0 7 8]] [:r 1 [0 8 7]] [:append 1 8] [:append 1 7]]}' >"$tmp/future.edn"
test_case "future-read: the first append read before it (8, not 7, read first), with its first read" <<'T'
expect_status 1 "$isolde" check --json -m list-append "$tmp/future.edn"
facts
fact 'future-read mop=["r",1,[0,7,8]] element=8'
test "$(grep -c '^future-read' "$tmp/facts")" = 1
fact 'internal mop=["r",1,[0,7,8]] expected=[0,7]'
T

python3 -c '
a = " ".join("[:append %d 1]" % k for k in range(100)) + " [:append 0 2]"
print("{:index 0 :type :invoke :process 0 :f :txn :value [%s]}" % a)
print("{:index 1 :type :ok :process 0 :f :txn :value [%s]}" % a)
print("{:index 2 :type :invoke :process 1 :f :txn :value [[:r 0 nil] [:r 99 nil]]}")
print("{:index 3 :type :ok :process 1 :f :txn :value [[:r 0 [1]] [:r 99 [1]]]}")' >"$tmp/g1b.edn"
test_case "G1b: of 101 appends to 100 keys, only the one appended again is intermediate" <<'T'
expect_status 1 "$isolde" check --json -m list-append "$tmp/g1b.edn"
facts
fact 'types: G-single-item,G1b'
fact 'G1b mop=["r",0,[1]] element=1'
test "$(grep -c '^G1b' "$tmp/facts")" = 1
T

python3 -c '
a = " ".join("[:append 1 %d]" % v for v in range(1000))
r = " ".join(str(v) for v in range(999))
print("{:index 0 :type :invoke :process 0 :f :txn :value [%s [:r 1 nil] [:r 1 nil]]}" % a)
print("{:index 1 :type :ok :process 0 :f :txn :value [%s [:r 1 [%s]] [:r 1 [7]]]}" % (a, r))' >"$tmp/internal.edn"
test_case "internal: 1000 appends then a read missing the last: expected ends in 999" <<'T'
expect_status 1 "$isolde" check --json -m list-append "$tmp/internal.edn"
facts
test "$(grep -c '^internal' "$tmp/facts")" = 1
grep '^internal' "$tmp/facts" | grep -q 'expected=\["...",0,1,2,.*,997,998,999\]$'
T

# ---- large shapes under the CPU limit -------------------------------------------

test_case "la-inforead: one :info read of 1M never-appended elements" <<'T'
big la-inforead 1000000 list-append 2
fact 'types: empty-transaction-graph'
T

test_case "la-manykeys: one transaction appending to 200k keys" <<'T'
big la-manykeys 200000 list-append 2
fact 'types: empty-transaction-graph'
T

test_case "la-onekey: one transaction appending 200k values to one key" <<'T'
big la-onekey 200000 list-append 2
fact 'types: empty-transaction-graph'
T

test_case "la-pairs: 200k pairs [r k []] [append k v] in one transaction: internal at the second read" <<'T'
big la-pairs 200000 list-append 1
fact 'types: empty-transaction-graph,internal,not-my-own-write'
fact 'internal mop=["r",1,[]] expected=[0]'
fact 'not-my-own-write mop=["r",1,[]]'
T

test_case "la-dups: four reads listing one element 1M times" <<'T'
big la-dups 1000000 list-append 1
fact 'types: duplicate-elements'
test "$(grep -c '^duplicate-elements mop=.* duplicates={"1":1000000}$' "$tmp/facts")" = 4
T

test_case "la-dirty: a failed append, then a read of 200k elements each listed twice: each once in the versions" <<'T'
big la-dirty 200000 list-append 1
fact 'types: dirty-update,duplicate-elements'
fact 'dirty-update key=1 values=200002:[0,2,3]..[200001,1] txns=1,...,3'
T

test_case "rw-manykeys: one transaction writing 200k keys" <<'T'
big rw-manykeys 200000 rw-register 2
fact 'types: empty-transaction-graph'
T

test_case "rw-onekey: one transaction writing 200k values to one key" <<'T'
big rw-onekey 200000 rw-register 2
fact 'types: empty-transaction-graph'
T

test_case "rw-pairs: 200k pairs [r k nil] [w k v] in one transaction: internal, and not-my-own-write once" <<'T'
big rw-pairs 200000 rw-register 1
fact 'types: empty-transaction-graph,internal,not-my-own-write'
test "$(grep -c '^not-my-own-write ' "$tmp/facts")" = 1
T

test_case "rw-explain: a G-single through two transactions of 200k keys, explained" <<'T'
big rw-explain 200000 rw-register 1
fact 'types: G-single-item,fractured-read'
grep -q '"type":"wr","key":199999' "$tmp/out"
T

finish
