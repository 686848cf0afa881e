#!/bin/sh
# Jepsen's history.txt (PROCESS TAB TYPE TAB F TAB VALUE [TAB ERROR], what
# every Jepsen store writes beside history.edn) through `isolde check`:
# detected without -f, read op for op as its history.edn twin, and errors
# at their line and column. (What tests/data/read/history.txt and
# register-history.txt check to, with and without -f, their headers say:
# t1000 runs them.)
. tests/clilib.sh "$@"
r=tests/data/read

test_case "history.txt is detected and gives its history.edn twin's verdict" <<'T'
expect_status 1 "$isolde" check --json "$r/history-twin.edn"
tr -d '\n' < "$tmp/out" | sed 's/"anomalies".*"not"/"not"/' > "$tmp/edn"
expect_status 1 "$isolde" check --json "$r/history.txt"
tr -d '\n' < "$tmp/out" | sed 's/"anomalies".*"not"/"not"/' > "$tmp/txt"
grep -q '"anomaly-types":\["G1c"\]' "$tmp/txt"
cmp "$tmp/edn" "$tmp/txt"
T

test_case "a history.txt line that is no op line is an error at its place" <<'T'
printf '0\t:invoke\t:read\tnil\n0\t:ok\t:read\t1\nINFO jepsen.core - Running\n' > "$tmp/h.txt"
expect_status 3 "$isolde" check -m register "$tmp/h.txt"
expect_err "h.txt:3:6: expected the type (:invoke, :ok, :fail or :info), got jepsen.core"
printf '0\t:invoke\t:read\tnil\n0\t:ok\t:read\tnil\n' > "$tmp/ok.txt"
expect_status 0 "$isolde" check -m register "$tmp/ok.txt"
T

finish
