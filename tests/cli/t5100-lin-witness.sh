#!/bin/sh
# The linearizability witness as a reader checks it against the file (issue
# 11, item 6): ops are named by line, or by :index when the file has them
# (line:col when ops share a line); a failed cas read as returning false says
# so; the ops before a quiescent point that lead to the failing segment's
# state are shown (a mutex's second acquire shows the first). And -d DIR on
# linearizability results, valid and not (item 8).
. tests/clilib.sh "$@"

# jepsen.log: write 1, a failed cas [2 3] (returned false: fine), a read of 2.
{
    printf 'INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n'
    printf 'INFO  jepsen.util - 1\t:invoke\t:cas\t[2 3]\nINFO  jepsen.util - 1\t:fail\t:cas\t[2 3]\n'
    printf 'INFO  jepsen.util - 3\t:invoke\t:read\tnil\nINFO  jepsen.util - 3\t:ok\t:read\t2\n'
} >"$tmp/cas.log"

# A failed cas [1 2] while the register held 1: impossible when it returned false.
{
    printf 'INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n'
    printf 'INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\nINFO  jepsen.util - 1\t:fail\t:cas\t[1 2]\n'
} >"$tmp/casbad.log"

# Mutex: two acquires, with :index from 10 on (not the ops' positions).
cat >"$tmp/m.edn" <<'EOF'
{:type :invoke, :f :acquire, :process 0, :index 10}
{:type :ok, :f :acquire, :process 0, :index 11}
{:type :invoke, :f :acquire, :process 1, :index 12}
{:type :ok, :f :acquire, :process 1, :index 13}
EOF
sed 's/, :index [0-9]*//' "$tmp/m.edn" >"$tmp/m-noindex.edn"
printf '[{"type":"invoke","f":"acquire","process":0},{"type":"ok","f":"acquire","process":0},{"type":"invoke","f":"acquire","process":1},{"type":"ok","f":"acquire","process":1}]\n' >"$tmp/m.json"
printf '{:type :invoke, :f :acquire, :process 0}\n{:type :ok, :f :acquire, :process 0}\n{:type :invoke, :f :release, :process 0}\n{:type :ok, :f :release, :process 0}\n' >"$tmp/good.edn"

test_case "a failed cas in the linearization says it failed and what that means" <<'T'
expect_status 1 "$isolde" check -m cas-register "$tmp/cas.log"
expect_out ':cas \[2 3\]  (invoked line 3, failed line 4)'
expect_out 'a failed cas, read as one that returned false: the register did not hold 2'
T

test_case "a failed cas that could not have returned false says why" <<'T'
expect_status 1 "$isolde" check -m cas-register "$tmp/casbad.log"
expect_out 'it failed, so it ran while the register did not hold 1; but the state is 1'
not grep -q 'cannot cas' "$tmp/out"
T

test_case "ops are named by line when the file has no :index" <<'T'
expect_status 1 "$isolde" check -m cas-register "$tmp/cas.log"
expect_out ':read 2  (invoked line 5, ok line 6)'
not grep -q '#' "$tmp/out"
T

test_case "ops are named by :index when the file has them" <<'T'
expect_status 1 "$isolde" check -m mutex "$tmp/m.edn"
expect_out 'process 1 :acquire  (invoked index 12, ok index 13)'
T

test_case "ops sharing a line (a one-line JSON array) are named by line:column" <<'T'
expect_status 1 "$isolde" check -m mutex "$tmp/m.json"
expect_out 'process 1 :acquire  (invoked line 1:'
T

test_case "a mutex's second acquire shows the first, which holds the lock" <<'T'
expect_status 1 "$isolde" check -m mutex "$tmp/m-noindex.edn"
expect_out 'the 1 earlier op .* linearizes from state free as:'
expect_out '1. process 0 :acquire  (invoked line 1, ok line 2)'
expect_out 'then, from state held, no op can go first:'
expect_out 'cannot acquire when the state is held'
T

test_case "the earlier ops are in the JSON witness, with lines and completion types" <<'T'
expect_status 1 "$isolde" check --json -m cas-register "$tmp/cas.log"
expect_out '"earlier-ops":\[{"process":0,"f":"write","value":1,"index":0,"line":1'
expect_out '"complete-type":"fail"'
expect_out '"note":"a failed cas, read as one that returned false'
T

test_case "-d DIR on a nonlinearizable result writes the witness to DIR/linearizability.txt" <<'T'
expect_status 1 "$isolde" check -m mutex -d "$tmp/bad" "$tmp/m-noindex.edn"
expect_out 'mutex: NOT linearizable'
test -f "$tmp/bad/linearizability.txt"
grep -q 'mutex: NOT linearizable' "$tmp/bad/linearizability.txt"
grep -q '1. process 0 :acquire  (invoked line 1, ok line 2)' "$tmp/bad/linearizability.txt"
test "$(ls "$tmp/bad" | tr "\n" " ")" = "index.html linearizability.txt results.json "
T

test_case "-d DIR on a linearizable result writes the verdict to DIR/linearizability.txt" <<'T'
expect_status 0 "$isolde" check -m mutex -d "$tmp/good" "$tmp/good.edn"
grep -q 'mutex: linearizable' "$tmp/good/linearizability.txt"
test "$(ls "$tmp/good" | tr "\n" " ")" = "index.html linearizability.txt results.json "
T

test_case "-d DIR with --json on a lin result: JSON on stdout, the text in DIR" <<'T'
expect_status 1 "$isolde" check -m mutex --json -d "$tmp/j" "$tmp/m.edn"
expect_out '"valid?":false'
grep -q 'NOT linearizable' "$tmp/j/linearizability.txt"
T

finish
