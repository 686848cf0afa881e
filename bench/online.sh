#!/bin/sh
# bench/online.sh BUILD -- checking while a history grows (issue 27,
# docs/ONLINE.md), side by side in one run:
#   1. `isolde run sim --live` against the same run without it: the run's
#      own throughput (the txn/s its first line reports), runs alternated,
#      the median of each; target: --live keeps >= 90% of it;
#   2. `isolde check --follow --follow-timeout 0` of a complete file against
#      `isolde check` of it: wall time and peak memory (measured: the early
#      checks are whole-history checks today, the final check is the
#      batch's);
#   3. a G1c planted after $n valid list-append transactions of
#      bench/gen_history, written 10 s after them into `check --follow -`:
#      the time from its lines being written to `certain: G1c` on stderr
#      (a window check's; target <= 1 s).
# ISOLDE_BENCH_ONLINE_N sets the run's transactions (default 2000000),
# ISOLDE_BENCH_RUNS the runs each way (3). Exits 1 on a missed target.
set -u
build=${1:-build}
isolde=$build/isolde
peak=$build/bench/peak
n=${ISOLDE_BENCH_ONLINE_N:-2000000}
runs=${ISOLDE_BENCH_RUNS:-3}
dir=${TMPDIR:-/tmp}/isolde-bench
mkdir -p "$dir" || exit 1
[ -x "$isolde" ] || { echo "online.sh: $isolde missing"; exit 1; }
status=0

# The run's throughput (txn/s) of one run sim -n $n with extra options $1.
rate() {
    "$isolde" run sim -i read-committed -n "$n" --seed 5 $1 -o "$dir/online.jsonl" >"$dir/online.out" 2>&1
    sed -n 's/^run: .* \([0-9][0-9]*\) txn\/s.*/\1/p' "$dir/online.out" | head -1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$dir/plain.txt"
: >"$dir/live.txt"
for i in $(seq "$runs"); do
    rate "" >>"$dir/plain.txt"
    rate --live >>"$dir/live.txt"
done
plain=$(median <"$dir/plain.txt")
live=$(median <"$dir/live.txt")
res=$(awk -v p="$plain" -v l="$live" 'BEGIN { if (p > 0 && l >= 0.9 * p) print "MET"; else print "MISSED" }')
[ "$res" = MET ] || status=1
printf 'run sim -n %s: %s txn/s, with --live %s txn/s (%s%%; target >= 90%%) %s\n' "$n" "$plain" "$live" \
    "$(awk -v p="$plain" -v l="$live" 'BEGIN { printf "%.0f", (p > 0) ? 100 * l / p : 0 }')" "$res"

# --follow of the complete file beside the batch check of it.
f=$dir/online.jsonl
for mode in batch follow; do
    opt=; [ "$mode" = follow ] && opt="--follow --follow-timeout 0"
    set -- $("$peak" "$isolde" check $opt "$f" 2>/dev/null)
    printf 'check %-6s of the run'"'"'s history (%s lines): %s s wall, %s s cpu, peak %s MB (measured)\n' "$mode" \
        "$(wc -l <"$f")" "$1" "$2" "$(($3 / 1024))"
done
# The planted anomaly: written once the valid part has been read and checked.
gen=$build/bench/gen_history
v=$dir/online-valid-$n.jsonl
[ -s "$v" ] || "$gen" -m list-append -n "$n" -f jsonl -s 7 >"$v"
i=$(($(tail -1 "$v" | sed 's/.*"index":\([0-9]*\).*/\1/') + 1))
t=$dir/online-g1c.jsonl
{
    echo '{"type":"invoke","f":"txn","value":[["append","px",1],["r","py",null]],"process":900001,"index":'$i'}'
    echo '{"type":"invoke","f":"txn","value":[["append","py",1],["r","px",null]],"process":900002,"index":'$((i + 1))'}'
    echo '{"type":"ok","f":"txn","value":[["append","px",1],["r","py",[1]]],"process":900001,"index":'$((i + 2))'}'
    echo '{"type":"ok","f":"txn","value":[["append","py",1],["r","px",[1]]],"process":900002,"index":'$((i + 3))'}'
} >"$t"
rm -f "$dir/t-written" "$dir/t-found"
(cat "$v"; sleep 10; date +%s.%N >"$dir/t-written"; cat "$t"; sleep 5) |
    "$isolde" check --follow - 2>&1 >/dev/null | while IFS= read -r l; do
        case $l in *"certain: G1c"*) [ -s "$dir/t-found" ] || date +%s.%N >"$dir/t-found" ;; esac
    done
lat=$(cat "$dir/t-written" "$dir/t-found" 2>/dev/null | awk 'NR == 1 { a = $1 } NR == 2 { printf "%.2f", $1 - a }')
res=$(awk -v l="${lat:-99}" 'BEGIN { print (l != "" && l <= 1) ? "MET" : "MISSED" }')
[ "$res" = MET ] || status=1
printf 'a G1c planted after %s valid transactions (check --follow -): reported %s s after it was written (target <= 1 s) %s\n' \
    "$n" "${lat:-never}" "$res"
exit "$status"
