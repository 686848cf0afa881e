#!/bin/sh
# The cycle search's budgets (issue 11 item 10): 32 independent rings of
# 4000 transactions (bench/gen_history -r), each a G1c component where a
# cycle is found at once but proving it shortest takes seconds. Shortening
# stops at a work cap, so the check ends well inside a CPU limit the old
# search overran (1 s of shortening per ring: 31 s of CPU; minutes with no
# time limit), with the same report whatever the threads; a tiny whole-search
# budget (--timeout) ends in timeouts and the cycle-exists fallback, never
# in a wrong verdict.
. tests/clilib.sh "$@"
gen=$build/bench/gen_history
h=$tmp/rings.jsonl

# limited WANT CMD...: expect_status under a 20 s CPU limit.
limited() {
    _want=$1; shift
    expect_status "$_want" sh -c 'ulimit -t 20; exec "$@"' sh "$@"
}
g1c_count() { grep -c '^G1c #' "$tmp/out"; }

test_case "gen_history -r 32 writes 32 rings of 4000 transactions" <<'T'
"$gen" -r 32 -n 128000 >"$h"
test "$(wc -l <"$h")" -eq 256000
T

test_case "the rings are G1c, 32 times, well inside 20 s of CPU on two threads" <<'T'
limited 1 "$isolde" check -j 2 --max-examples 0 "$h"
expect_out '^anomaly-types: G1c$'
test "$(g1c_count)" -eq 32
T

# Without time limits nothing but the work cap ends the shortening (the
# old search took minutes), so the report is the same on any machine.
test_case "no time limit at all: G1c 32 times, inside the same CPU limit" <<'T'
limited 1 "$isolde" check -j 2 -s 0 --timeout 0 --max-examples 0 "$h"
test "$(g1c_count)" -eq 32
cp "$tmp/out" "$tmp/j2"
T

test_case "no time limit, one thread: the same report" <<'T'
limited 1 "$isolde" check -j 1 -s 0 --timeout 0 --max-examples 0 "$h"
cmp "$tmp/out" "$tmp/j2"
T

# However fast the machine, 32 rings take more than 1 ms: some component
# meets the end of the whole budget; which ones is a matter of timing.
test_case "a 1 ms whole budget: timeouts that say so, and read-committed still proved violated" <<'T'
limited 1 "$isolde" check --timeout 1 "$h"
expect_out '^anomaly-types: .*cycle-search-timeout$'
expect_out "ran out of its share of the whole search's budget (raise it with --timeout)\.$"
expect_out '^not: read-committed$'
T

test_case "a 1 ms whole budget with no model to fall back on: unknown or G1c, never valid" <<'T'
s=0
"$isolde" check -c '' -a G1c --timeout 1 --json "$h" >"$tmp/out" || s=$?
case $s in 1|2) ;; *) false ;; esac
expect_out '"cycle-search-timeout"'
T

finish
