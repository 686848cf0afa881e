#!/bin/sh
# bench/lin.sh -- the linearizability benchmark (issue 5): generates
# linearizable register and kv histories with bench/gen_lin (10 clients,
# values 0..4, about 1 op in 2000 crashing as :info, or none) and times
# `isolde check -m register|kv` on each. One row per case: operations,
# wall time (reading included), the checker's own time (from its report),
# throughput, peak RSS, verdict, and the target (MET / MISSED).
# A verdict other than "linearizable", or a missed target, makes the script exit 1.
#
#   sh bench/lin.sh BUILD_DIR
# Environment: ISOLDE_BENCH_TIMEOUT (seconds per run, default 60), TMPDIR
# (histories are kept in $TMPDIR/isolde-bench-lin while gen_lin is unchanged).
set -u
build=${1:-build}
isolde=$build/isolde
gen=$build/bench/gen_lin
limit=${ISOLDE_BENCH_TIMEOUT:-60}
dir=${TMPDIR:-/tmp}/isolde-bench-lin
failed=0

for x in "$isolde" "$gen"; do
    [ -x "$x" ] || { echo "lin.sh: $x missing (run make BUILD=$build all tests)"; exit 1; }
done
mkdir -p "$dir" || exit 1
tag=$(cksum < "$gen" | cut -d' ' -f1)
find "$dir" -name 'l-*' ! -name "l-$tag-*" -exec rm -f {} +

# history MODEL OPS KEYS FORMAT CRASH STALE: prints the path, generating it once.
history() {
    f=$dir/l-$tag-$1-$2-$3-$5-$6.$4
    if [ ! -s "$f" ]; then
        "$gen" "$1" "$2" "$3" 10 42 "$4" "$5" "$6" > "$f.tmp" && mv "$f.tmp" "$f" || return 1
    fi
    echo "$f"
}

# concurrent_writes N [READ]: N mutually concurrent writes of 1..N, all ok
# (with READ 1, and a read of 3 concurrent with them all), then two reads
# one after the other that see 1 and then 2 -- a contradiction only every
# order of the writes proves (JSON lines). Writes alone need no search
# (linear/lin_writes.c); a read among them makes it the memo's 2^N sets.
concurrent_writes() {
    f=$dir/l-$tag-writes-$1-${2:-0}.jsonl
    awk -v n="$1" -v r="${2:-0}" 'BEGIN {
        for (p = 0; p < n; p++) printf "{\"type\":\"invoke\",\"f\":\"write\",\"value\":%d,\"process\":%d}\n", p + 1, p
        if (r) printf "{\"type\":\"invoke\",\"f\":\"read\",\"value\":null,\"process\":%d}\n", n + 1
        for (p = 0; p < n; p++) printf "{\"type\":\"ok\",\"f\":\"write\",\"value\":%d,\"process\":%d}\n", p + 1, p
        if (r) printf "{\"type\":\"ok\",\"f\":\"read\",\"value\":3,\"process\":%d}\n", n + 1
        for (v = 1; v <= 2; v++) {
            printf "{\"type\":\"invoke\",\"f\":\"read\",\"value\":null,\"process\":%d}\n", n
            printf "{\"type\":\"ok\",\"f\":\"read\",\"value\":%d,\"process\":%d}\n", v, n
        } }' > "$f"
    echo "$f"
}

# measure FILE MODEL: sets wall, peak_kb, status; the report goes to $dir/out.txt
measure() {
    file=$1 model=$2
    if [ -x "$build/bench/peak" ]; then
        set -- $("$build/bench/peak" -t "$limit" "$isolde" check -m "$model" "$file" 2>/dev/null)
        wall=$1 peak_kb=$3 status=$4
        "$isolde" check -m "$model" "$file" > "$dir/out.txt" 2>&1
    else
        /usr/bin/time -f "%e %M" -o "$dir/time.txt" timeout "$limit" \
            "$isolde" check -m "$model" "$file" > "$dir/out.txt" 2>&1
        status=$?
        [ "$status" -eq 124 ] && status=timeout
        read -r wall peak_kb < "$dir/time.txt"
    fi
}

printf '%-32s %9s %8s %8s %11s %8s %-16s %s\n' case ops wall_s check_s ops/s peak_MB verdict target
row() { # name model ops keys max_s max_mb format crash [stale]
    f=$(history "$2" "$3" "$4" "$7" "$8" "${9:-0}") || { echo "$1: generator failed"; failed=1; return; }
    result "$@"
}
result() { # as row, with the history in $f
    want=0
    [ "${9:-0}" = 1 ] && want=1
    measure "$f" "$2"
    check_s=$(sed -n 's/.*checked in \([0-9.]*\) s.*/\1/p' "$dir/out.txt" | head -1)
    [ -n "$check_s" ] || check_s=-
    mb=$((peak_kb / 1024))
    rate=$(awk -v n="$3" -v t="$wall" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
    case $status in
    "$want") verdict=linearizable; [ "$want" = 1 ] && verdict="not-linearizable" ;;
    *) verdict="WRONG($status)"; failed=1 ;;
    esac
    target=MET
    if [ "$5" != - ]; then
        awk -v t="$wall" -v m="$5" 'BEGIN { exit !(t <= m) }' || target=MISSED
        [ "$mb" -le "$6" ] || target=MISSED
        [ "$target" = MET ] || failed=1
        target="$target (<= $5 s, <= $6 MB)"
    else
        target="-"
    fi
    printf '%-32s %9s %8s %8s %11s %8s %-16s %s\n' "$1" "$3" "$wall" "$check_s" "$rate" "$mb" \
        "$verdict" "$target"
}

row "register 10 clients" register 10000 1 - - edn 2000
row "register 10 clients" register 20000 1 - - edn 2000
row "register 10 clients" register 100000 1 5 1024 edn 2000
row "register, no crashes" register 100000 1 5 1024 edn 0
row "cas-register 10 clients" cas-register 100000 1 5 1024 edn 2000
row "kv 1000 keys, edn" kv 1000000 1000 1 1024 edn 2000
row "kv 1000 keys, jsonl" kv 1000000 1000 1 1024 jsonl 2000
# issue 16's rows
row "register, a planted stale read" register 100000 1 1 1024 edn 2000 1
row "register 1M" register 1000000 1 5 1024 edn 2000
f=$(concurrent_writes 18)
result "18 concurrent writes, then 1, 2" register 20 1 1 1024 jsonl 0 1
f=$(concurrent_writes 24)
result "24 concurrent writes, then 1, 2" register 26 1 1 1024 jsonl 0 1
f=$(concurrent_writes 18 1)   # the target: a definite verdict within the default budget (60 s)
result "18 writes and a read, then 1, 2" register 21 1 60 1024 jsonl 0 1
exit "$failed"
