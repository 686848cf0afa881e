#!/bin/sh
# The ladder's weak rungs (issue 25 item 3): the sim's replicated levels
# read-atomic, causal, prefix and parallel-snapshot-isolation, and its
# broken modes fractured-read, causality-violation and partition-merge.
# First the brute-force oracle (tests/tools/oracle/, the models by their
# axioms) judges small runs: each level keeps its model in every seed, and
# each mode keeps the rung below and breaks the one it names in some seed.
# Then isolde check on full runs, over 30 seeds: a model never convicts a
# level that keeps it, and it convicts the mode one rung weaker in every
# seed.
. tests/clilib.sh "$@"
oracle=$build/tests/tools/oracle/oracle

# The rows still pending, per workload (MODEL, or MODEL/LEVEL for one
# conviction row): their conviction rows are skipped and their soundness
# rows accept unknown (2) as well as valid. Remove a name when it passes.
# None is pending: prefix on rw-register, the last, is decided exactly
# since issue 26's exact check grew a prefix model.
pending_la=""
pending_rw=""

pending() { # WORKLOAD MODEL [LEVEL]: status 0 when that row's complete check is pending
    p=$pending_rw
    [ "$1" = list-append ] && p=$pending_la
    for x in $p; do
        [ "$x" = "$2" ] && return 0
        [ "$x" = "$2/${3:-}" ] && return 0
    done
    return 1
}

# ---- the oracle, on small runs (8 transactions and the final read) ----

small() { # WORKLOAD LEVEL FIRST LAST: small runs of seeds FIRST..LAST as $tmp/WORKLOAD-LEVEL/SEED.jsonl
    mkdir -p "$tmp/$1-$2"
    for s in $(seq "$3" "$4"); do
        expect_status 2 "$isolde" run sim -m "$1" -i "$2" -c '' -n 8 -p 3 --keys $((2 + s % 2)) --lag $((s % 3)) \
            --max-txn-length $((3 + s % 2)) --seed "$s" -o "$tmp/$1-$2/$s.jsonl"
    done
}

invalid_at() { # WORKLOAD MODEL FILE...: how many FILEs the oracle finds invalid at MODEL
    w=la
    [ "$1" = rw-register ] && w=rw
    m=$2
    shift 2
    "$oracle" check -w "$w" -m "$m" "$@" >"$tmp/verdicts"
    awk -F'\t' '$3 == "invalid" { n++ } END { print n + 0 }' "$tmp/verdicts"
}

keeps() { # WORKLOAD LEVEL MODEL...: the oracle finds seeds 1..100 valid at each MODEL
    wl=$1; l=$2; shift 2
    small "$wl" "$l" 1 100
    for m in "$@"; do
        n=$(invalid_at "$wl" "$m" "$tmp/$wl-$l"/*.jsonl)
        [ "$n" = 0 ] || { echo "$n runs invalid at $m:"; grep 'invalid$' "$tmp/verdicts" | head -n 3; return 1; }
    done
}

breaks() { # WORKLOAD LEVEL MODEL: the oracle finds one of seeds 1..100 invalid at MODEL
    [ -d "$tmp/$1-$2" ] || small "$1" "$2" 1 100
    [ "$(invalid_at "$1" "$3" "$tmp/$1-$2"/*.jsonl)" != 0 ] || { echo "no run invalid at $3"; return 1; }
}

breaks_at() { # WORKLOAD LEVEL MODEL SEED KEPT: the oracle finds seed SEED invalid at MODEL, valid at KEPT
    small "$1" "$2" "$4" "$4"
    f=$tmp/$1-$2/$4.jsonl
    [ "$(invalid_at "$1" "$3" "$f")" = 1 ] || { echo "valid at $3"; return 1; }
    [ "$(invalid_at "$1" "$5" "$f")" = 0 ] || { echo "invalid at $5"; return 1; }
}

test_case "the oracle is built" 'test -x "$oracle"'

# A broken mode's violation is rare in 8 transactions: the seeds below
# (each one small run, as small() makes it) show it; a change to the sim's
# draws may move them (find others with a loop over small() and invalid_at).
for wl in list-append rw-register; do
    test_case "oracle, $wl: sim read-atomic keeps read-atomic (and RA: sessions)" \
        "keeps $wl read-atomic read-committed read-atomic RA"
    test_case "oracle, $wl: sim causal keeps causal-cerone and causal (CC: sessions)" \
        "keeps $wl causal read-atomic causal-cerone causal CC"
    test_case "oracle, $wl: sim prefix keeps prefix (and PC: sessions)" "keeps $wl prefix causal prefix PC"
    test_case "oracle, $wl: sim parallel-snapshot-isolation keeps it (and PSI: sessions)" \
        "keeps $wl parallel-snapshot-isolation causal parallel-snapshot-isolation PSI"
    test_case "oracle, $wl: sim fractured-read keeps read-committed" "keeps $wl fractured-read read-committed"
    test_case "oracle, $wl: sim causality-violation keeps read-atomic" \
        "keeps $wl causality-violation read-committed read-atomic RA"
    test_case "oracle, $wl: sim partition-merge keeps parallel-snapshot-isolation" \
        "keeps $wl partition-merge causal parallel-snapshot-isolation PSI"
    test_case "oracle, $wl: sim causal breaks parallel-snapshot-isolation (lost updates)" \
        "breaks $wl causal parallel-snapshot-isolation"
    test_case "oracle, $wl: sim prefix breaks snapshot-isolation (lost updates)" \
        "breaks $wl prefix snapshot-isolation"
    for row in "fractured-read read-atomic 24 read-committed" "causality-violation causal-cerone 628 read-atomic" \
               "partition-merge snapshot-isolation 92 parallel-snapshot-isolation" \
               "parallel-snapshot-isolation snapshot-isolation 287 parallel-snapshot-isolation"; do
        # shellcheck disable=SC2086  # row is a level, a model, a seed and a model
        set -- $row
        test_case "oracle, $wl: sim $1 breaks $2, keeps $4 (seed $3)" "breaks_at $wl $row"
    done
done

# ---- isolde check, on full runs ----

# Runs long enough, on few enough keys, that every seed's history shows
# the mode's violation: a register's fractured read or causality
# violation is one only when other reads fix the order of the writes it
# misses, and a fork is a long fork only when reads close it (without
# them the history has an execution the model allows, which a complete
# check rightly accepts). Measured over seeds 1..30: fractured-read at
# -n 4000 left 6 rw-register seeds without one, causality-violation on 4
# keys one, partition-merge at -n 4000 four list-append seeds (at -n
# 8000 on 8 keys four rw-register seeds under SI's exact check), the
# parallel-snapshot-isolation level at the defaults ten rw-register seeds
# without a cycle SI forbids.
opts() { # LEVEL: its run options
    case $1 in
        fractured-read) echo "-n 8000 --keys 4 -p 3 --lag 3" ;;
        causality-violation) echo "-n 8000 --keys 3 -p 3 --lag 3" ;;
        partition-merge) echo "-n 8000 --keys 3" ;;
        parallel-snapshot-isolation) echo "-n 4000 -p 4 --keys 4" ;;
        *) echo "-n 2000" ;;
    esac
}

sound() { # WORKLOAD MODEL LEVEL: -c MODEL finds sim LEVEL valid in seeds 1..30
    for s in $(seq 1 30); do
        st=0
        # shellcheck disable=SC2046  # opts prints options, split on purpose
        "$isolde" run sim -m "$1" -i "$3" -c "$2" $(opts "$3") --seed "$s" -o "$tmp/h.jsonl" >"$tmp/out" 2>&1 || st=$?
        [ "$st" = 0 ] && continue
        [ "$st" = 2 ] && pending "$1" "$2" && continue
        echo "seed $s: status $st"
        tail -n 5 "$tmp/out"
        return 1
    done
}

convicts() { # WORKLOAD MODEL LEVEL: -c MODEL finds sim LEVEL invalid in seeds 1..30
    for s in $(seq 1 30); do
        # shellcheck disable=SC2046
        expect_status 1 "$isolde" run sim -m "$1" -i "$3" -c "$2" $(opts "$3") --seed "$s" -o "$tmp/h.jsonl" ||
            { echo "seed $s"; return 1; }
    done
}

for wl in list-append rw-register; do
    for row in "read-committed fractured-read" "read-atomic read-atomic" "read-atomic causality-violation" \
               "causal-cerone causal" "causal causal" "prefix prefix" \
               "parallel-snapshot-isolation parallel-snapshot-isolation" \
               "parallel-snapshot-isolation partition-merge"; do
        # shellcheck disable=SC2086  # row is a model and a level
        set -- $row
        test_case "$wl: -c $1 never convicts sim $2 (30 seeds)" "sound $wl $row"
    done
    for row in "read-atomic fractured-read" "causal-cerone causality-violation" "causal causality-violation" \
               "prefix partition-merge" "parallel-snapshot-isolation causal" \
               "snapshot-isolation partition-merge" "snapshot-isolation parallel-snapshot-isolation" \
               "snapshot-isolation prefix"; do
        # shellcheck disable=SC2086
        set -- $row
        if pending "$wl" "$1" "$2"; then
            test_skip "$wl: -c $1 convicts sim $2 (30 seeds)" "its complete check is pending (this script's pending_*)"
        else
            test_case "$wl: -c $1 convicts sim $2 (30 seeds)" "convicts $wl $row"
        fi
    done
done

finish
