#!/bin/sh
# The model's states in a linearizability witness (issue 14, the view's
# "hover for the state before and after"): each op of the longest
# linearizable prefix with its order and the state before and after it, as
# the model prints it; the op that cannot follow with the state it met; a
# state's text cut at 1024 bytes on a character boundary; a long prefix
# keeps the states of its last 1000 ops, and the HTML page holds only those
# and says so (the JSON and the text hold every op).
. tests/clilib.sh "$@"

# Each op of the witness as one line: order, process, f, value, states.
cat >"$tmp/ops.py" <<'EOF'
import json, sys
d = json.load(sys.stdin)
for w in d["nonlinearizable"]:
    for kind in ("earlier-ops", "linearizable-prefix"):
        for o in w[kind]:
            print(kind, o.get("order"), o["process"], o["f"], json.dumps(o["value"]),
                  o.get("state-before"), "->", o.get("state-after"))
    print("op", w["op"]["process"], w["op"]["f"], json.dumps(w["op"]["value"]),
          "met", w["op"]["state-met"])
EOF

test_case "a stale read: each prefix op's order and states, the state the read met" <<'T'
expect_status 1 "$isolde" check -m cas-register --json tests/data/html/cas-stale.edn
python3 "$tmp/ops.py" <"$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
earlier-ops None 0 write 1 nil -> 1
linearizable-prefix 1 2 read 1 1 -> 1
linearizable-prefix 2 1 cas [1, 2] 1 -> 2
linearizable-prefix 3 3 read 2 2 -> 2
linearizable-prefix 4 2 read 2 2 -> 2
op 0 read 1 met 2
EOF
diff "$tmp/want" "$tmp/got"
expect_out '"prefix-length":4,"prefix-omitted":0,"states-from":0'
expect_out '"previous-ok":{[^}]*"order":4,"state-before":"2","state-after":"2"}'
T

test_case "states are the model's own text: a mutex is held or free" <<'T'
printf '{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n{:type :invoke, :f :acquire, :process 1}\n{:type :ok, :f :acquire, :process 1}\n' >"$tmp/m.edn"
expect_status 1 "$isolde" check -m mutex --json "$tmp/m.edn"
expect_out '"state-before":"free","state-after":"held"'
expect_out '"state-met":"held"'
T

test_case "a state longer than 1024 bytes is cut on a character boundary, saying so" <<'T'
python3 -c '
v = "\u00e9" * 1500
print("{:index 0, :type :invoke, :process 0, :f :write, :value \"%s\"}" % v)
print("{:index 1, :type :ok, :process 0, :f :write, :value \"%s\"}" % v)
print("{:index 2, :type :invoke, :process 1, :f :read, :value nil}")
print("{:index 3, :type :ok, :process 1, :f :read, :value \"y\"}")' >"$tmp/long-value.edn"
expect_status 1 "$isolde" check -m register --json "$tmp/long-value.edn"
python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["nonlinearizable"][0]
want = "\"" + "\u00e9" * 511 + " ... (cut at 1024 bytes)"
assert w["earlier-ops"][0]["state-after"] == want, w["earlier-ops"][0]["state-after"][-40:]
assert w["op"]["state-met"] == want' "$tmp/out"
T

# One :info write open from the start: no quiescent point, so 3000 ops
# (1500 writes, each read back) form the failing segment's prefix.
awk 'BEGIN {
    i = 0
    printf "{\"type\":\"invoke\",\"f\":\"write\",\"value\":7,\"process\":9,\"index\":%d}\n", i++
    for (k = 0; k < 1500; k++) {
        printf "{\"type\":\"invoke\",\"f\":\"write\",\"value\":%d,\"process\":0,\"index\":%d}\n", k % 5, i++
        printf "{\"type\":\"ok\",\"f\":\"write\",\"value\":%d,\"process\":0,\"index\":%d}\n", k % 5, i++
        printf "{\"type\":\"invoke\",\"f\":\"read\",\"value\":null,\"process\":1,\"index\":%d}\n", i++
        printf "{\"type\":\"ok\",\"f\":\"read\",\"value\":%d,\"process\":1,\"index\":%d}\n", k % 5, i++
    }
    printf "{\"type\":\"invoke\",\"f\":\"read\",\"value\":null,\"process\":1,\"index\":%d}\n", i++
    printf "{\"type\":\"ok\",\"f\":\"read\",\"value\":99,\"process\":1,\"index\":%d}\n", i++
}' >"$tmp/long.jsonl"

test_case "a long prefix: every op in the JSON, the states of the last 1000" <<'T'
expect_status 1 "$isolde" check -m cas-register --json "$tmp/long.jsonl"
expect_out '"prefix-length":3000,"prefix-omitted":0,"states-from":2000'
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["nonlinearizable"][0]["linearizable-prefix"]
assert len(p) == 3000 and [o["order"] for o in p] == list(range(1, 3001))
assert "state-before" not in p[1999] and p[2000]["state-before"] is not None
assert all(p[i]["state-after"] == p[i + 1]["state-before"] for i in range(2000, 2999))' "$tmp/out"
T

test_case "a long prefix: the page holds its last 1000 ops and says so" <<'T'
expect_status 1 "$isolde" check -m cas-register --html "$tmp/long.html" "$tmp/long.jsonl"
test "$(wc -c <"$tmp/long.html")" -lt 1000000
grep -q '"prefix-length":3000,"prefix-omitted":2000,"states-from":2000' "$tmp/long.html"
grep -q '(the first 2000 not shown: this page holds the last 1000)' "$tmp/long.html"
test "$(grep -o '"order":' "$tmp/long.html" | wc -l)" -eq 1001
T

finish
