#!/bin/sh
# Runs every unit test: each tests/unit/<folder>/test_x.c is expected built
# as BUILD/tests/unit/<folder>/test_x (a source without its binary fails; a
# stale binary without a source is not run). Binaries run $ISOLDE_JOBS at a
# time (default 2), from the repository root; stdout goes to BIN.out, stderr
# to BIN.err. A failing binary is named by its path, with the cmocka test
# functions that failed, their messages (cmocka's stderr) and what each
# printed. Prints a closing count; exits 1 on any failure, 77 (skipped)
# when the build had no cmocka to build them with.
build=${1:-build}
jobs=${ISOLDE_JOBS:-2}
# Built without cmocka: the build says why (make tests writes SKIPPED).
if [ -f "$build/tests/unit/SKIPPED" ]; then
    echo "skip unit: $(sed 's/^skipped: //' "$build/tests/unit/SKIPPED")"
    echo "unit: skipped"
    exit 77
fi
list=$(find tests/unit -name 'test_*.c' | sort)
[ -n "$list" ] || { echo "unit: no tests/unit/**/test_*.c found (run from the repository root)"; exit 1; }

# Run them (BIN.rc holds the exit status).
for src in $list; do
    bin=$build/${src%.c}
    rm -f "$bin.rc"
    [ -x "$bin" ] && echo "$bin"
done | xargs -P "$jobs" -n 1 sh -c '[ -n "$1" ] || exit 0; "$1" >"$1.out" 2>"$1.err"; echo $? >"$1.rc"' sh

pass=0; fail=0; skipped=0
for src in $list; do
    bin=$build/${src%.c}
    if [ ! -x "$bin" ]; then
        fail=$((fail + 1)); echo "FAILED $bin: not built (from $src; make tests builds it)"; continue
    fi
    rc=$(cat "$bin.rc" 2>/dev/null || echo "?")
    # cmocka's summary (and its messages) go to stderr.
    n=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:$/\1/p' "$bin.err")
    skipped=$((skipped + ${n:-0}))
    if [ "$rc" = 0 ]; then pass=$((pass + 1)); continue; fi
    fail=$((fail + 1))
    # The failed test functions: cmocka lists them after its summary.
    failed=$(sed -n '/^\[  FAILED  \] [0-9]* test(s), listed below:$/,$s/^\[  FAILED  \] \([^ ]*\)$/\1/p' "$bin.err" | tr '\n' ' ' | sed 's/ $//')
    echo "FAILED $bin (exit $rc): ${failed:+failed tests: }${failed:-no cmocka failure reported (a crash?)}"
    if [ -s "$bin.err" ]; then # the messages, before the summary
        echo "  --- stderr (cmocka's messages):"
        sed -n '/^\[  PASSED  \] [0-9]* test(s)\.$/q; /^\[  FAILED  \] [0-9]* test(s), listed below:$/q; p' "$bin.err" |
            tail -n 40 | sed 's/^/  | /'
    fi
    if [ -n "$failed" ]; then
        for f in $failed; do
            echo "  --- stdout of $f (tail):"
            sed -n "/^\[ RUN      \] $f\$/,/^\[  FAILED  \] $f\$/p" "$bin.out" | tail -n 15 | sed 's/^/  | /'
        done
    else
        echo "  --- stdout (tail):"; tail -n 20 "$bin.out" | sed 's/^/  | /'
    fi
done
extra=""; [ "$skipped" -gt 0 ] && extra=" ($skipped cmocka tests skipped)"
echo "unit: $pass passed, $fail failed$extra"
[ "$fail" -eq 0 ]
