#!/bin/sh
# tools/same-output.sh OLD NEW [SHARED] -- runs two isolde binaries over the
# same inputs and options and reports every case whose exit status, stdout,
# stderr or -d files differ. For refactors that must not change behaviour:
# build the old commit in a worktree, then
#   sh tools/same-output.sh /tmp/old/build/isolde build/isolde
# Inputs: examples/, tests/data/, ../shared/corpus (or SHARED), and
# histories generated with bench/gen_history and `run sim` (set
# ISOLDE_SAME_BIG=1 to add 1M-transaction ones). Timings printed by the
# linearizability report ("checked in N s") and by a run's summary ("in N
# s, R txn/s"), and temporary paths, are masked.
# Prints one line per differing case and a closing count; exits 1 on any.
old=$1 new=$2 shared=${3:-../shared}
[ -x "$old" ] && [ -x "$new" ] || { echo "usage: $0 OLD NEW [SHARED]"; exit 3; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
old=$(abs "$old") new=$(abs "$new")
gen=$(dirname "$new")/bench/gen_history
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0; diff=0

mask() { sed -e 's/checked in [0-9.]* s/checked in X s/' -e 's/in [0-9.]* s, [0-9]* \(txn\|op\)\/s/in X s, X \1\/s/' \
    -e "s|$tmp/[ab]/|T/|g" "$1"; }

# case NAME ARGS...: run both binaries with ARGS (D stands for an output dir).
case_() {
    name=$1; shift
    for side in a b; do
        bin=$old; [ $side = b ] && bin=$new
        rm -rf "$tmp/$side"; mkdir -p "$tmp/$side"
        args=""
        for a in "$@"; do [ "$a" = D ] && a=$tmp/$side/dir; args="$args '$a'"; done
        (cd "$tmp/$side" && eval "\"$bin\" $args" >out 2>err; echo $? >status) 2>/dev/null
        for o in out err; do mask "$tmp/$side/$o" >"$tmp/$side/$o.m"; done
        [ -d "$tmp/$side/dir" ] && (cd "$tmp/$side/dir" && find . -type f | LC_ALL=C sort | while read -r o; do echo "== $o"; mask "$o"; done) >"$tmp/$side/dir.m"
    done
    d=""
    for o in status out.m err.m dir.m h.jsonl; do
        [ -f "$tmp/a/$o" ] || [ -f "$tmp/b/$o" ] || continue
        cmp -s "$tmp/a/$o" "$tmp/b/$o" || d="$d ${o%.m}"
    done
    if [ -z "$d" ]; then same=$((same + 1)); else diff=$((diff + 1)); echo "DIFF ($d ): $name"; fi
}

here=$(pwd)
txn_files=$( (ls examples/*.edn examples/*.json examples/*.jsonl; find tests/data -type f \
    2>/dev/null; find "$shared/corpus" -type f \( -name '*.edn' -o -name '*.json' -o -name '*.jsonl' \) 2>/dev/null) |
    grep -v -e EXPECTED -e '\.tsv$' -e '\.case$' -e README -e '\.md$' -e '\.py$' | sort)
for f in $txn_files; do
    case $f in /*) p=$f ;; *) p=$here/$f ;; esac
    case_ "check $f" check "$p"
    case_ "check --json $f" check --json "$p"
    case_ "check -c si,ser -a G1 $f" check -c snapshot-isolation,serializable -a G1 --max-examples 1 "$p"
    case_ "check -d $f" check -d D "$p"
    case_ "check rw evidence $f" check -m rw-register --wfr-keys --sequential-keys --linearizable-keys --json "$p"
    case_ "check -c '' -a internal $f" check -c '' -a internal --json "$p"
done
lin_files=$( (ls tests/data/read/*.log 2>/dev/null; find "$shared/corpus" -path '*knossos*' -type f 2>/dev/null) | sort)
for f in $lin_files; do
    case $f in /*) p=$f ;; *) p=$here/$f ;; esac
    for m in register cas-register mutex kv; do
        case_ "check -m $m $f" check -m $m "$p"
        case_ "check -m $m --json $f" check -m $m --json "$p"
    done
done

# Generated histories: both workloads, valid and anomalous, every format.
if [ -x "$gen" ]; then
    sizes=2000; [ -n "$ISOLDE_SAME_BIG" ] && sizes="2000 100000 1000000"
    for n in $sizes; do for m in list-append rw-register; do for fl in "" -a; do for fmt in jsonl edn; do
        h=$tmp/g-$m-$n$fl.$fmt
        "$gen" -m $m -n $n -f $fmt $fl -s 7 >"$h"
        case_ "gen $m $n $fl $fmt" check "$h"
        case_ "gen $m $n $fl $fmt --json" check --json "$h"
        [ $m = rw-register ] && case_ "gen $m $n $fl $fmt lin-keys" check --linearizable-keys --wfr-keys "$h"
    done; done; done; done
fi

# The sim's histories and the run reports.
for lvl in read-uncommitted read-committed snapshot-isolation serializable strict-serializable lost-update; do
    for w in list-append rw-register; do
        case_ "run sim $lvl $w" run sim -i $lvl -m $w -n 600 -p 5 --seed 3 -o h.jsonl
    done
done
echo "same-output: $same same, $diff differ"
[ "$diff" -eq 0 ]
