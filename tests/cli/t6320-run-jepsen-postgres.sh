#!/bin/sh
# Jepsen's workloads on a real PostgreSQL (issue 15; tests/servers/
# postgres.sh): SERIALIZABLE passes bank and set-full, REPEATABLE READ
# passes bank (first updater wins: a transfer that took a stale balance
# fails with 40001), and READ COMMITTED is too weak for bank and counter:
# two transfers take the same balance and one's write is lost, so the
# total changes (wrong-total), and increments are lost (out-of-bounds).
# A lost update needs two clients to race, so each weak case is given up
# to three runs to show it; each seen so far showed it in its first.
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^postgres:'; then
    [ "${CI:-}" = true ] && test_case "built with libpq" "false"
    test_skip "PostgreSQL runs of Jepsen's workloads" "built without libpq"
    finish
fi
need_server ISOLDE_PG_URL "PostgreSQL runs of Jepsen's workloads"
PGPASSWORD=$ISOLDE_PG_PASSWORD
export PGPASSWORD
url=$ISOLDE_PG_URL
export url

run_pg() { # STATUS WORKLOAD LEVEL [OPTION...]
    _s=$1; _w=$2; _l=$3; shift 3
    expect_status "$_s" "$isolde" run postgres --url "$url" --fresh -w "$_w" -i "$_l" -n 1500 -p 10 \
        -o "$tmp/h.jsonl" "$@"
}

shows() { # ERROR WORKLOAD LEVEL: status 1 naming ERROR within three runs
    for _try in 1 2 3; do
        run_pg 1 "$2" "$3" 2>/dev/null && expect_out "^errors:.*$1" && return 0
    done
    cat "$tmp/out"
    return 1
}

test_case "SERIALIZABLE passes bank; conflicting transfers fail with 40001" <<'T'
run_pg 0 bank serializable
expect_out '^valid?: true$'
expect_out 'not ok: .*serialization-failure'
grep -q '"type":"fail",.*"f":"transfer".*"error":\["serialization-failure","40001",' "$tmp/h.jsonl"
not grep -q -F "$PGPASSWORD" "$tmp/h.jsonl" "$tmp/out" "$tmp/err"
T

test_case "SERIALIZABLE passes set-full" <<'T'
run_pg 0 set-full serializable
expect_out '^valid?: true$'
expect_out ' 0 lost, '
T

test_case "REPEATABLE READ passes bank (snapshot isolation: no lost update)" <<'T'
run_pg 0 bank repeatable-read
expect_out '^valid?: true$'
T

test_case "SERIALIZABLE passes counter and long-fork" <<'T'
run_pg 0 counter serializable
run_pg 0 long-fork serializable
T

test_case "READ COMMITTED is too weak for bank: wrong-total" <<'T'
shows wrong-total bank read-committed
T

test_case "READ COMMITTED loses increments: out-of-bounds" <<'T'
shows out-of-bounds counter read-committed
T
finish
