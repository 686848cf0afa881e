#!/bin/sh
# bench/jepsen.sh -- Jepsen's checkers at 1M ops (issue 15): histories made
# by `isolde run sim -w W -n 500000` (an invocation and a completion per
# transaction), one row per checker with wall and CPU time, throughput,
# peak RSS, the verdict (the sim at snapshot-isolation: valid; a verdict
# other than that is WRONG and makes the script exit 1) and the target,
# linear time: <= 1.5 s and <= 400 MB (PASS / MISS). With
# ISOLDE_BENCH_BASELINE (make bench BASELINE=REV) the baseline binary is
# timed run for run beside it ("-" where it has no such checker).
#   sh bench/jepsen.sh BUILD_DIR
# Environment: ISOLDE_BENCH_RUNS (3), ISOLDE_BENCH_TIMEOUT (60 s), TMPDIR
# (histories kept in $TMPDIR/isolde-bench-jepsen while isolde is unchanged).
set -u
build=${1:-build}
isolde=$build/isolde
peak=$build/bench/peak
runs=${ISOLDE_BENCH_RUNS:-3}
limit=${ISOLDE_BENCH_TIMEOUT:-60}
base=${ISOLDE_BENCH_BASELINE:-}
dir=${TMPDIR:-/tmp}/isolde-bench-jepsen
failed=0
for x in "$isolde" "$peak"; do
    [ -x "$x" ] || { echo "jepsen.sh: $x missing (run make BUILD=$build all tests)"; exit 1; }
done
mkdir -p "$dir" || exit 1
tag=$(cksum < "$isolde" | cut -d' ' -f1)
find "$dir" -name 'j-*' ! -name "j-$tag-*" -exec rm -f {} +

# history WORKLOAD RUN-OPTIONS...: the path, made once.
history() {
    w=$1; shift
    f=$dir/j-$tag-$w$(printf '%s' "$*" | tr -c 'a-z0-9.' _).jsonl
    [ -s "$f" ] || "$isolde" run sim -w "$w" -n 500000 -i snapshot-isolation --seed 42 -o "$f" "$@" \
        > /dev/null 2>&1 || { rm -f "$f"; return 1; }
    echo "$f"
}

# median BINARY ARGS...: "WALL CPU PEAK_KB STATUS" of the median of $runs runs.
median() {
    : > "$dir/runs.txt"
    i=0
    while [ $i -lt "$runs" ]; do "$peak" -t "$limit" "$@" 2>/dev/null >> "$dir/runs.txt"; i=$((i + 1)); done
    sort -n "$dir/runs.txt" | sed -n "$(( (runs + 1) / 2 ))p"
}

printf '%-9s %8s %6s %7s %6s %9s %7s %-8s %-15s %s\n' checker ops MB wall_s cpu_s ops/s peak_MB verdict target result
row() { # WORKLOAD RUN-OPTIONS...
    w=$1
    f=$(history "$@") || { echo "$w: isolde run sim failed"; failed=1; return; }
    cat "$f" > /dev/null
    ops=$(wc -l < "$f"); bytes=$(wc -c < "$f")
    set -- $(median "$isolde" check -m "$w" "$f")
    cmp=""
    if [ -n "$base" ]; then
        b=$(median "$base" check -m "$w" "$f")
        set -- "$@" $b
        [ "${8:-3}" = 0 ] && cmp=$(awk -v w="$1" -v bw="$5" 'BEGIN { printf " | base %.3f s, new/old wall %.3f", bw, w / bw }')
        [ "${8:-3}" = 0 ] || cmp=" | base -"
    fi
    awk -v w="$w" -v n="$ops" -v b="$bytes" -v t="$1" -v c="$2" -v kb="$3" -v st="$4" 'BEGIN {
        pk = kb / 1024; tt = (t > 0 ? t : 0.001)
        vn = st == 0 ? "valid" : st == 1 ? "invalid" : st == 2 ? "unknown" : "error"
        ok = t <= 1.5 && pk <= 400
        res = st != 0 ? "WRONG" : ok ? "PASS" : "MISS"
        printf "%-9s %8d %6.1f %7.3f %6.2f %9.0f %7.1f %-8s %-15s %s", w, n, b / 1e6, t, c, n / tt, pk, vn, "<=1.5s <=400MB", res
        exit(res == "WRONG")
    }' || failed=1
    echo "$cmp"
}

row bank
row counter
row set --keys 64
row set-full --keys 64 --read-ratio 0.00005
row long-fork
exit "$failed"
