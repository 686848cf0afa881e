#!/bin/sh
# The SQL runners are not what limits a run: `isolde run postgres` (and
# `mysql`) against a bare client loop sending the same statements from the
# same number of connections (bench/sql_loop.c: the same generator and
# seed, nothing recorded), in turns, five rounds; the median of the rounds'
# ratios must be >= 0.9 (a round's two runs are neighbours in time: the
# host's load moves less between them than over the whole benchmark). Uses the servers ISOLDE_PG_URL /
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

run_isolde() {
    "$isolde" run "$1" --url "$2" --fresh -i read-committed -n $n -p $clients --keys $keys \
        -o "$servers_dir/h.jsonl" -c read-committed | rate >>"$servers_dir/$1.isolde"
}
run_loop() { "$loop" "$1" "$2" $clients $n "READ COMMITTED" $keys | rate >>"$servers_dir/$1.loop"; }

compare() { # DRIVER URL-WITH-PASSWORD
    "$isolde" run "$1" --help | grep -q "^$1:" || { echo "$1: not built in; skipped"; return; }
    for i in 1 2 3 4 5; do # in turns, the order flipped each round
        if [ $((i % 2)) = 1 ]; then run_isolde "$@"; run_loop "$@"; else run_loop "$@"; run_isolde "$@"; fi
        a=$(tail -1 "$servers_dir/$1.isolde") b=$(tail -1 "$servers_dir/$1.loop")
        echo "  round $i: isolde run $a txns/s, bare loop $b txns/s"
        awk -v a="$a" -v b="$b" 'BEGIN { print a / b }' >>"$servers_dir/$1.ratio"
    done
    a=$(median <"$servers_dir/$1.isolde") b=$(median <"$servers_dir/$1.loop") r=$(median <"$servers_dir/$1.ratio")
    echo "$1: isolde run $a txns/s, bare loop $b txns/s ($n txns, $clients connections, $keys keys, read committed; medians of 5 rounds)"
    awk -v r="$r" -v d="$1" 'BEGIN { printf "%s: median ratio of the rounds %.2f, target >= 0.9: %s\n", d, r, r >= 0.9 ? "MET" : "MISSED"; exit r < 0.9 }' || status=1
}

[ -n "${ISOLDE_PG_URL:-}" ] && compare postgres "postgresql://isolde:$ISOLDE_PG_PASSWORD@${ISOLDE_PG_URL#postgresql://isolde@}"
[ -n "${ISOLDE_MYSQL_URL:-}" ] && compare mysql "mysql://isolde:$ISOLDE_MYSQL_PASSWORD@${ISOLDE_MYSQL_URL#mysql://isolde@}"
exit $status
