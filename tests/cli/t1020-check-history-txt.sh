#!/bin/sh
# Jepsen's history.txt (PROCESS TAB TYPE TAB F TAB VALUE [TAB ERROR], what
# every Jepsen store writes beside history.edn) through `isolde check`:
# detected without -f, read op for op as its history.edn twin, and errors
# at their line and column.
. tests/clilib.sh "$@"
r=tests/fixtures/read

test_case "history.txt is detected and gives its history.edn twin's verdict" <<'T'
expect_status 1 "$isolde" check --json "$r/history-twin.edn"
tr -d '\n' < "$tmp/out" | sed 's/"anomalies".*"not"/"not"/' > "$tmp/edn"
expect_status 1 "$isolde" check --json "$r/history.txt"
tr -d '\n' < "$tmp/out" | sed 's/"anomalies".*"not"/"not"/' > "$tmp/txt"
grep -q '"anomaly-types":\["G1c"\]' "$tmp/txt"
cmp "$tmp/edn" "$tmp/txt"
T

test_case "-f jepsen-txt reads it too, and the proof shows its ops" <<'T'
expect_status 1 "$isolde" check -f jepsen-txt "$r/history.txt"
expect_out '^anomaly-types: G1c'
expect_out ':type :ok, :process 1, :f :txn, :value \[\[:append :y 1\] \[:r :x \[1\]\]\]'
T

test_case "a register history.txt with nemesis ops and errors is linearizable" <<'T'
expect_status 0 "$isolde" check -m cas-register "$r/register-history.txt"
expect_out '^cas-register: linearizable'
T

test_case "a history.txt line that is no op line is an error at its place" <<'T'
printf '0\t:invoke\t:read\tnil\n0\t:ok\t:read\t1\nINFO jepsen.core - Running\n' > "$tmp/h.txt"
expect_status 3 "$isolde" check -m register "$tmp/h.txt"
expect_err "h.txt:3:6: expected the type (:invoke, :ok, :fail or :info), got jepsen.core"
printf '0\t:invoke\t:read\tnil\n0\t:ok\t:read\tnil\n' > "$tmp/ok.txt"
expect_status 0 "$isolde" check -m register "$tmp/ok.txt"
T

finish
