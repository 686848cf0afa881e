#!/bin/sh
# The SQL runners are not what limits a run: `isolde run postgres` (and
# `mysql`) against a bare client loop sending the same statements from the
# same number of connections (bench/sql_loop.c: the same generator and
# seed, nothing recorded), in turns, three rounds; the ratio of the median
# throughputs must be >= 0.9. Uses the servers ISOLDE_PG_URL /
# ISOLDE_MYSQL_URL name (with ISOLDE_*_PASSWORD), else starts them with
# tests/servers/ when they are installed.
build=${1:-build}
isolde=$build/isolde
loop=$build/bench/sql_loop
[ -x "$loop" ] || { echo "sql: $loop not built"; exit 1; }
. tests/servers/up.sh
trap servers_down EXIT
trap 'exit 130' INT TERM # the EXIT trap stops the servers
n=6000 clients=10 keys=64
status=0
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
rate() { sed -n 's/.* \([0-9.]*\) txns\{0,1\}\/s.*/\1/p' | head -1; }

compare() { # DRIVER URL-WITH-PASSWORD
    "$isolde" run "$1" --help | grep -q "^$1:" || { echo "$1: not built in; skipped"; return; }
    for i in 1 2 3; do
        "$isolde" run "$1" --url "$2" --fresh -i read-committed -n $n -p $clients --keys $keys \
            -o "$servers_dir/h.jsonl" -c read-committed | rate >>"$servers_dir/$1.isolde"
        "$loop" "$1" "$2" $clients $n "READ COMMITTED" $keys | rate >>"$servers_dir/$1.loop"
    done
    a=$(median <"$servers_dir/$1.isolde") b=$(median <"$servers_dir/$1.loop")
    echo "$1: isolde run $a txns/s, bare loop $b txns/s ($n txns, $clients connections, $keys keys, read committed; medians of 3 in turns)"
    awk -v a="$a" -v b="$b" -v d="$1" 'BEGIN { r = a / b; printf "%s ratio %.2f, target >= 0.9: %s\n", d, r, r >= 0.9 ? "MET" : "MISSED"; exit r < 0.9 }' || status=1
}

[ -n "${ISOLDE_PG_URL:-}" ] && compare postgres "postgresql://isolde:$ISOLDE_PG_PASSWORD@${ISOLDE_PG_URL#postgresql://isolde@}"
[ -n "${ISOLDE_MYSQL_URL:-}" ] && compare mysql "mysql://isolde:$ISOLDE_MYSQL_PASSWORD@${ISOLDE_MYSQL_URL#mysql://isolde@}"
exit $status
