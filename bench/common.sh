#!/bin/sh
# bench/common.sh -- what the benchmarks that time isolde check share, sourced
# by bench/check.sh and bench/scale.sh (bench/run.sh does not run it): the
# verdict names, and timing a command $runs times with `peak` (alternating
# run for run with the baseline binary $ISOLDE_BENCH_BASELINE when it is
# set) and taking the median. Expects $peak, $limit, $runs, $dir and $errf.

verdict_name() {
    case $1 in
    0) echo valid ;; 1) echo invalid ;; 2) echo unknown ;; 3) echo error ;;
    timeout) echo timeout ;; *) echo "crash($1)" ;;
    esac
}

base=${ISOLDE_BENCH_BASELINE:-}

# median FILE: the run with the median wall time (all must end with the
# same status, else the first that differs).
median() {
    first=$(awk 'NR == 1 { print $4 }' "$1")
    odd=$(awk -v s="$first" '$4 != s { print; exit }' "$1")
    if [ -n "$odd" ]; then echo "$odd"; else sort -n "$1" | sed -n "$(( (runs + 1) / 2 ))p"; fi
}

# timed CMD...: `peak` over $runs runs, the median; with a baseline, the
# same command with the baseline binary after each run, its median in
# $dir/base.txt.
timed() {
    i=0; : > "$dir/runs.txt"; : > "$dir/base-runs.txt"
    while [ $i -lt "$runs" ]; do
        "$peak" -t "$limit" "$@" 2> "$errf" >> "$dir/runs.txt"
        if [ -n "$base" ]; then
            first=$1; shift
            "$peak" -t "$limit" "$base" "$@" 2>/dev/null >> "$dir/base-runs.txt"
            set -- "$first" "$@"
        fi
        i=$((i + 1))
    done
    [ -n "$base" ] && median "$dir/base-runs.txt" > "$dir/base.txt"
    median "$dir/runs.txt"
}

# compared WALL_S CPU_S: " | base W s, new/old wall R cpu R" with a baseline.
compared() {
    [ -n "$base" ] || return 0
    set -- "$1" "$2" $(cat "$dir/base.txt")
    awk -v w="$1" -v c="$2" -v bw="$3" -v bc="$4" 'BEGIN {
        printf " | base %.3f s, new/old wall %.3f cpu %.3f", bw, (bw > 0 ? w / bw : 0), (bc > 0 ? c / bc : 0) }'
}

