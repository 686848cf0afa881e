#!/bin/sh
# The runner's speed: transactions per second against the sim (target
# >= 200k/s) with peak RSS, and against SQLite the runner's own share of
# the CPU (target <= 5%): the history writes (CPU with the history on disk
# minus CPU with it in /dev/null) plus, when perf works, the samples spent
# in the runner's own code (dso run_backend, SQLite driver glue included).
build=${1:-build}
bin=$build/bench/run_backend
[ -x "$bin" ] || { echo "runner: $bin not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== runner: sim, 1,000,000 transactions, 8 clients, history on disk"
sim=$("$bin" sim 1000000 "" "$tmp/sim.jsonl"); echo "$sim"
rm -f "$tmp/sim.jsonl"
echo "$sim" | awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "txns/s,") r = $i }
    END { printf "sim target >= 200000 txns/s: %s\n", (r >= 200000 ? "met" : "MISSED") }' 

"$bin" sqlite 10 "$tmp/probe.db" >/dev/null 2>&1 || { echo "runner: no SQLite; done"; exit 0; }
cpu_of() { sed -n 's/.*cpu \([0-9.]*\) s.*/\1/p'; }
echo "== runner: sqlite, 50,000 transactions, 8 clients"
file=$("$bin" sqlite 50000 "$tmp/a.db" "$tmp/sqlite.jsonl"); echo "$file"
null=$("$bin" sqlite 50000 "$tmp/b.db" /dev/null); echo "$null (history to /dev/null)"
c_file=$(echo "$file" | cpu_of); c_null=$(echo "$null" | cpu_of)
awk -v f="$c_file" -v n="$c_null" 'BEGIN { d = f - n; if (d < 0) d = 0;
    printf "history writes: %.1f%% of the run'"'"'s CPU\n", 100 * d / f }'
if command -v perf >/dev/null && perf record -q -o "$tmp/perf.data" -F 4000 \
        "$bin" sqlite 50000 "$tmp/c.db" "$tmp/perf.jsonl" >/dev/null 2>&1; then
    perf report -i "$tmp/perf.data" --sort dso --stdio 2>/dev/null |
        awk '/run_backend/ { printf "runner code (perf samples in run_backend): %s\n", $1 }'
fi
