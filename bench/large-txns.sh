#!/bin/sh
# bench/large-txns.sh -- one very large read or transaction (issue 11 item
# 10): times `isolde check` on each shape of tests/tools/large_txns.py at
# ISOLDE_BENCH_LARGE (default 1000000) micro-ops or elements and prints
# one row per shape with wall and CPU time, throughput (elements or
# micro-ops per second), peak RSS and the exit status. The checks per read
# and per transaction are linear, so every shape should take about a
# second; one that runs out of ISOLDE_BENCH_TIMEOUT (default 60 s), or
# ends with a status other than the shape's verdict, makes the script exit 1.
#
#   sh bench/large-txns.sh BUILD_DIR
set -u
build=${1:-build}
isolde=$build/isolde
peak=$build/bench/peak
n=${ISOLDE_BENCH_LARGE:-1000000}
limit=${ISOLDE_BENCH_TIMEOUT:-60}
dir=${TMPDIR:-/tmp}/isolde-bench-large
failed=0

for x in "$isolde" "$peak"; do
    [ -x "$x" ] || { echo "large-txns.sh: $x missing (run make BUILD=$build all tests)"; exit 1; }
done
command -v python3 > /dev/null || { echo "large-txns.sh: python3 missing, skipped"; exit 0; }
mkdir -p "$dir" || exit 1

printf '%-12s %8s %6s %7s %6s %10s %7s %s\n' shape n MB wall_s cpu_s per_s peak_MB status
# shape SHAPE WORKLOAD WANT: one row (WANT: the exit status the shape gives).
shape() {
    f=$dir/$1-$n.edn
    [ -s "$f" ] || python3 tests/tools/large_txns.py "$1" "$n" > "$f" || { echo "$1: generator failed"; failed=1; return; }
    cat "$f" > /dev/null
    set -- "$1" "$3" $("$peak" -t "$limit" "$isolde" check -m "$2" "$f" 2>/dev/null)
    awk -v s="$1" -v n="$n" -v b="$(wc -c < "$f")" -v t="$3" -v c="$4" -v kb="$5" -v st="$6" -v want="$2" 'BEGIN {
        printf "%-12s %8d %6.1f %7.3f %6.2f %10.0f %7.1f %s%s\n", s, n, b / 1e6, t, c,
            n / (t > 0 ? t : 0.001), kb / 1024, st, st == want ? "" : " WRONG (want " want ")"
        exit(st != want) }' || failed=1
}

shape la-inforead list-append 2
shape la-manykeys list-append 2
shape la-onekey list-append 2
shape la-pairs list-append 1
shape la-dups list-append 1
shape la-dirty list-append 1
shape rw-manykeys rw-register 2
shape rw-onekey rw-register 2
shape rw-pairs rw-register 1
shape rw-explain rw-register 1
exit "$failed"
