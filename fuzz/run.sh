#!/bin/sh
# fuzz/run.sh -- make fuzz's two steps.
#
#   run.sh probe CC BUILD          fail, saying what to install, unless CC
#                                  links a libFuzzer target with ASan+UBSan
#   run.sh run BUILD SECONDS [TARGET...]
#                                  run each target (default: all, from
#                                  isolde-fuzz -list) for SECONDS,
#                                  FUZZ_JOBS (1) at a time, over BUILD/fuzz/corpus/TARGET
#                                  (new inputs land there) and the seeds in
#                                  BUILD/fuzz/seeds
#
# A target that crashes, leaks, breaks a promise (fuzz/fuzz.h), runs out of
# its memory limit or takes longer than FUZZ_TIMEOUT seconds on one input
# fails: its report, the saved input's path and (up to 8 KiB) the input in
# base64 are printed, and the input stays in BUILD/fuzz/crashes/TARGET/. Every target runs even after one
# fails; the last line is "N passed, M failed" (targets), the exit status
# non-zero when any failed. Limits: FUZZ_TIMEOUT (10 s an input),
# FUZZ_RSS_MB (2048), FUZZ_MAX_LEN (16384 bytes an input).
set -u

probe() { # cc build
    mkdir -p "$2"
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' >"$2/probe.c"
    if ! "$1" -fsanitize=fuzzer,address,undefined -o "$2/probe" "$2/probe.c" >"$2/probe.log" 2>&1; then
        cat "$2/probe.log" >&2
        echo "make fuzz: '$1' cannot build libFuzzer targets (-fsanitize=fuzzer,address,undefined);" \
             "it needs clang and its runtime (Debian: apt-get install clang libclang-rt-dev)," \
             "or FUZZ_CC=another-clang" >&2
        exit 1
    fi
}

one() { # target: runs it, prints its lines (at once, so that two never mix), appends ok/FAILED to results
    t=$1
    ln -sf isolde-fuzz "$fz/$t"
    mkdir -p "$fz/corpus/$t" "$fz/crashes/$t"
    log=$fz/logs/$t.log
    TMPDIR=$fz/tmp "$fz/$t" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}" \
        -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len="${FUZZ_MAX_LEN:-16384}" \
        -dict=fuzz/isolde.dict -artifact_prefix="$fz/crashes/$t/" -print_final_stats=1 \
        "$fz/corpus/$t" "$fz/seeds" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ]; then
        echo ok >>"$fz/results"
        echo "== fuzz $t: ok (${runs:-?} inputs in ${secs} s, $cov, corpus $(ls "$fz/corpus/$t" | wc -l))"
        return
    fi
    echo FAILED >>"$fz/results"
    input=$(sed -n 's/^.*Test unit written to //p' "$log" | tail -n 1)
    {
        grep -v '^#[0-9]' "$log" | tail -n 40
        echo "== fuzz $t: FAILED (exit $rc) on ${input:-an input not saved}; log: $log"
        if [ -n "$input" ] && [ -f "$input" ]; then
            # the input itself, so that a CI log is enough to get it back
            [ "$(wc -c <"$input")" -le 8192 ] &&
                echo "   the input, base64: $(base64 -w 0 "$input")"
            echo "   to keep it: mkdir -p tests/fuzz-regressions/$t &&" \
                "cp $input tests/fuzz-regressions/$t/<what-it-is>"
        fi
    } >"$fz/logs/$t.report"
    cat "$fz/logs/$t.report"
}

run() { # build seconds [target...]: FUZZ_JOBS targets at a time (1)
    fz=$1/fuzz
    secs=$2
    shift 2
    bin=$fz/isolde-fuzz
    targets=${*:-$("$bin" -list)} || exit 1
    mkdir -p "$fz/corpus" "$fz/crashes" "$fz/logs" "$fz/tmp"
    : >"$fz/results"
    # what Graphviz's libgvc leaks inside itself is not a finding (tests/lsan-suppressions.txt)
    export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    running=0
    for t in $targets; do
        one "$t" &
        running=$((running + 1))
        [ "$running" -lt "${FUZZ_JOBS:-1}" ] && continue
        wait
        running=0
    done
    wait
    pass=$(grep -c '^ok' "$fz/results")
    fail=$(grep -c '^FAILED' "$fz/results")
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
}

cmd=$1
shift
case $cmd in
    probe) probe "$@" ;;
    run) run "$@" ;;
    *) echo "usage: fuzz/run.sh probe CC BUILD | run BUILD SECONDS [TARGET...]" >&2; exit 2 ;;
esac
