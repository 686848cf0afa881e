#!/bin/sh
# Many findings in little memory: a read of N elements nobody wrote is N
# garbage-read findings, each of whose proofs shows the whole op, so the
# proofs together are quadratic in the input. They are counted as found
# and rendered only as a report prints them: text (--max-examples) and
# --json stream them, in memory linear in the input (the old code needed
# 8.5 GB for a read of 20000 elements, and far more than these limits for
# the sizes here); the HTML page and -d's files show the first findings of
# a type (100, and a few MB of proofs) and how many more there were
# (issue 23 item 21: a read of 40000 elements wrote 11 GB of page). Running
# out of memory is an error, exit 3, never a crash. Under
# ISOLDE_SANITIZE=1 no limit is set (ulimit -v and ASan's shadow memory do
# not mix): the cases that test only the limit skip, the others run
# without one.
. tests/clilib.sh "$@"

okread() { # N: one ok read of list-append key 1 listing 0 .. N-1, none appended
    awk -v n="$1" 'BEGIN {
        print "{:index 0 :type :invoke :process 0 :f :txn :value [[:r 1 nil]]}"
        printf "{:index 1 :type :ok :process 0 :f :txn :value [[:r 1 ["
        for (i = 0; i < n; i++) printf "%s%d", i ? " " : "", i
        print "]]]}" }'
}

rwread() { # N: one ok rw-register txn reading 1 from keys 0 .. N-1, none written
    awk -v n="$1" 'BEGIN {
        printf "{:index 0 :type :invoke :process 0 :f :txn :value ["
        for (i = 0; i < n; i++) printf "%s[:r %d nil]", i ? " " : "", i
        print "]}"
        printf "{:index 1 :type :ok :process 0 :f :txn :value ["
        for (i = 0; i < n; i++) printf "%s[:r %d 1]", i ? " " : "", i
        print "]}" }'
}

limited() { # KB CMD...: CMD in at most KB of address space and 120 s of CPU
    _kb=$1; shift
    if [ -n "${ISOLDE_SANITIZE:-}" ]; then "$@"; return; fi
    ( ulimit -v "$_kb"; ulimit -t 120; exec "$@" )
}

# size FILE: its bytes.
size() { wc -c < "$1"; }

# Lines of $tmp/out that match PATTERN, with their order kept.
matches() { grep -o -- "$1" "$tmp/out" || true; }

if [ -n "${ISOLDE_SANITIZE:-}" ]; then
    test_skip "a list-append read of 200000 never-appended elements: 200000 garbage reads in 1 GB" "ulimit -v under ASan"
else
test_case "a list-append read of 200000 never-appended elements: 200000 garbage reads in 1 GB" <<'T'
okread 200000 > "$tmp/h.edn"
expect_status 1 limited 1000000 "$isolde" check -j 2 "$tmp/h.edn"
expect_out '^valid?: false$'
expect_out '^anomaly-types: empty-transaction-graph, garbage-read$'
expect_out '^== garbage-read: 200000 found (showing 3; all with --json) ==$'
matches '^garbage-read #[0-9]*$' > "$tmp/shown"
printf 'garbage-read #0\ngarbage-read #1\ngarbage-read #2\n' | cmp - "$tmp/shown"
expect_out '^  - T1 read key 1 = \[0 1 2 .* 199999\], which includes 2; no transaction ever appended that element to that key\.$'
T
fi

test_case "an rw-register txn of 200000 reads nobody wrote: 200000 garbage reads in 1 GB" <<'T'
rwread 200000 > "$tmp/h.edn"
expect_status 1 limited 1000000 "$isolde" check -m rw-register -j 2 "$tmp/h.edn"
expect_out '^valid?: false$'
expect_out '^== garbage-read: 200000 found (showing 3; all with --json) ==$'
matches '^garbage-read #[0-9]*$' > "$tmp/shown"
printf 'garbage-read #0\ngarbage-read #1\ngarbage-read #2\n' | cmp - "$tmp/shown"
expect_out '^  - T1 read key 2 = 1, but no transaction ever wrote 1 to key 2\.$'
T

test_case "--json streams every one of 3000 findings of 84 MB in 100 MB" <<'T'
okread 3000 > "$tmp/h.edn"
expect_status 1 limited 100000 "$isolde" check --json "$tmp/h.edn"
expect_out '^{"valid?":false,$'
matches '"element":[0-9]*}' | sed 's/[^0-9]//g' > "$tmp/elements"
seq 0 2999 | cmp - "$tmp/elements"
test "$(grep -c '"mop":\["r",1,\[0,1,2,' "$tmp/out")" = 3000
T

# Files of at most 200 MB (ulimit -f, in blocks of 512 or 1024 bytes):
# before, the page of a read of 40000 elements ran past any such limit.
test_case "--html of a read of 40000 never-appended elements: the first findings, how many more, 5 MB" <<'T'
okread 40000 > "$tmp/h.edn"
ulimit -f 400000
expect_status 1 limited 200000 "$isolde" check --html "$tmp/r.html" "$tmp/h.edn"
test "$(size "$tmp/r.html")" -lt 20000000
grep -q '"types":\[\["empty-transaction-graph",1\],\["garbage-read",40000\]\]' "$tmp/r.html"
grep -q '"not-shown": *{"garbage-read": *39995}' "$tmp/r.html"
test "$(grep -o '{"type":"garbage-read","n":[0-9]*' "$tmp/r.html" | sed 's/.*://' | tr '\n' ' ')" = "0 1 2 3 4 "
grep -q "more of this type not shown (all with --json)" "$tmp/r.html"
T

test_case "-d of the same read: its files show the first findings of a type and say how many more, 10 MB" <<'T'
okread 40000 > "$tmp/h.edn"
ulimit -f 400000
expect_status 1 limited 200000 "$isolde" check -d "$tmp/d" "$tmp/h.edn"
test "$(cat "$tmp"/d/* | wc -c)" -lt 40000000
grep '^garbage-read #' "$tmp/d/garbage-read.txt" > "$tmp/shown"
seq 0 4 | sed 's/^/garbage-read #/' | cmp - "$tmp/shown"
test "$(tail -n 1 "$tmp/d/garbage-read.txt")" = "39995 more of this type not shown (every one with --json)."
grep -q '^empty-transaction-graph #0$' "$tmp/d/empty-transaction-graph.txt"
python3 - "$tmp/d/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [g["element"] for g in d["anomalies"]["garbage-read"]] == [0, 1, 2, 3, 4]
assert d["not-shown"] == {"garbage-read": 39995} and d["anomalies"]["empty-transaction-graph"] is True
PY
grep -q '"not-shown": *{"garbage-read": *39995}' "$tmp/d/index.html"
T

test_case "-d shows up to 100 small findings of a type, then how many more; --json every one" <<'T'
rwread 1500 > "$tmp/h.edn"
expect_status 1 limited 80000 "$isolde" check -m rw-register -d "$tmp/d" "$tmp/h.edn"
grep '^garbage-read #' "$tmp/d/garbage-read.txt" > "$tmp/shown"
seq 0 99 | sed 's/^/garbage-read #/' | cmp - "$tmp/shown"
test "$(tail -n 1 "$tmp/d/garbage-read.txt")" = "1400 more of this type not shown (every one with --json)."
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["anomalies"]["garbage-read"]) == 100 and d["not-shown"] == {"garbage-read": 1400}' "$tmp/d/results.json"
expect_status 1 "$isolde" check -m rw-register --json "$tmp/h.edn"
test "$(grep -c '"element":1}' "$tmp/out")" = 1500
not grep -q 'not-shown' "$tmp/out"
T

test_case "--json of many findings is Elle's result map, each finding whole" <<'T'
okread 1000 > "$tmp/la.edn"
rwread 1000 > "$tmp/rw.edn"
expect_status 1 "$isolde" check --json "$tmp/la.edn"
mv "$tmp/out" "$tmp/la.json"
expect_status 1 "$isolde" check -m rw-register --json "$tmp/rw.edn"
python3 - "$tmp/la.json" "$tmp/out" <<'PY'
import json, sys
la, rw = (json.load(open(p)) for p in sys.argv[1:])
for d in la, rw:
    assert d["valid?"] is False and d["anomaly-types"] == ["empty-transaction-graph", "garbage-read"]
    assert len(d["anomalies"]["garbage-read"]) == 1000
for i, g in enumerate(la["anomalies"]["garbage-read"]):
    assert g["element"] == i and g["mop"] == ["r", 1, list(range(1000))] and g["op"]["index"] == 1, i
for i, g in enumerate(rw["anomalies"]["garbage-read"]):
    assert g["element"] == 1 and g["mop"] == ["r", i, 1] and len(g["op"]["value"]) == 1000, i
PY
T

if [ -n "${ISOLDE_SANITIZE:-}" ]; then
    test_skip "running out of memory is an error, exit 3, with its message" "ulimit -v under ASan"
    test_skip "a history read on two threads in 6x its size of address space (issue 16: it reserved 8x)" "ulimit -v under ASan"
    test_skip "at any memory limit a check ends with its verdict or out of memory, never a crash" "ulimit -v under ASan"
else
test_case "running out of memory is an error, exit 3, with its message" <<'T'
awk 'BEGIN { for (i = 0; i < 600000; i++)
    printf "{:index %d :type :ok :process %d :f :txn :value [[:append %d %d] [:r %d [%d]]]}\n", i, i % 7, i % 1000, i, i % 1000, i }' > "$tmp/h.edn"
expect_status 3 limited 60000 "$isolde" check "$tmp/h.edn"
expect_err 'out of memory (asked for [0-9]* bytes)$'
T

test_case "a history read on two threads in 6x its size of address space (issue 16: it reserved 8x)" <<'T'
test -x "$build/bench/gen_history"
"$build/bench/gen_history" -m list-append -n 100000 -s 3 > "$tmp/h100k.jsonl"
kb=$(( $(wc -c < "$tmp/h100k.jsonl") * 6 / 1024 ))
expect_status 0 limited $kb env ISOLDE_TIMING=1 "$isolde" check "$tmp/h100k.jsonl"
expect_err '^isolde: read: in parts'
T

test_case "at any memory limit a check ends with its verdict or out of memory, never a crash" <<'T'
test -x "$build/bench/gen_history"
"$build/bench/gen_history" -m list-append -n 20000 -a -s 5 > "$tmp/la.jsonl"
"$build/bench/gen_history" -m rw-register -n 20000 -a -s 5 > "$tmp/rw.jsonl"
for h in la rw; do
    for kb in 30000 40000 50000 60000 80000 120000 1000000; do
        rc=0
        limited $kb "$isolde" check --json "$tmp/$h.jsonl" > /dev/null 2> "$tmp/err" || rc=$?
        echo "$h $kb: $rc"
        case $rc in 1) ;; 3) grep -q 'out of memory' "$tmp/err" ;; *) exit 1 ;; esac
        echo "$h $rc" >> "$tmp/seen"
    done
done
grep -q '^la 3$' "$tmp/seen"
grep -q '^rw 3$' "$tmp/seen"
grep -q '^la 1$' "$tmp/seen"
grep -q '^rw 1$' "$tmp/seen"
T
fi

finish
