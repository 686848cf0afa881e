#!/bin/sh
# isolde against the brute-force oracle (tests/tools/oracle/): usage
#   sh tests/oracle.sh BUILD [N] [SEED]      (N default 500, SEED 1)
# First the oracle's own checks: the textbook cases (tests/data/oracle/) and
# its self-check (what must hold between the models' verdicts, 2N random
# histories). Then, per workload and model, N random histories for that
# model (half simulated at it, the rest at other models or broken) are
# judged by the oracle (by the model's axiomatic definition) and by
# `isolde check -m WORKLOAD -c MODEL --json` (one run for all N), and one row
# counts them:
#   agree      both valid or both invalid
#   unk/ov     isolde unknown, the oracle valid; unk/oi: the oracle invalid
#   incompl    isolde valid, the oracle invalid: isolde is incomplete
#   unsnd-rc   isolde invalid, the oracle valid at the model but invalid at
#              read-committed, which isolde's models DAG puts below every model
#              here (Elle's and, since issue 25, causal): sound for the name,
#              not for the definition alone
#   UNSOUND    isolde invalid, the oracle valid, even at read-committed
# Each disagreeing history is kept as OUT/disagree/WORKLOAD/MODEL/CLASS/
# SIZE-NNNNN.jsonl (SIZE: its micro-ops, so a listing shows the smallest
# first), with OUT/disagree/summary.tsv (workload, model, class, file,
# size, how the generator made it). OUT is $ISOLDE_ORACLE_OUT, else
# BUILD/oracle-out. $ISOLDE_ORACLE_MODELS replaces the list of models,
# $ISOLDE_ORACLE_WORKLOADS that of workloads. $ISOLDE_ORACLE_COMPLETE lists
# WORKLOAD:MODEL pairs where isolde claims complete (default: those
# `isolde models MODEL` says are complete): an incompl there fails the run.
# Exit status 1 when the oracle fails its own checks, isolde gives no
# verdict for a history, any history is UNSOUND, or one is incompl where
# isolde claims complete.
build=${1:-build}
n=${2:-500}
seed=${3:-1}
tool=$build/tests/tools/oracle/oracle
isolde=${ISOLDE:-$build/isolde}
out=${ISOLDE_ORACLE_OUT:-$build/oracle-out}
models=${ISOLDE_ORACLE_MODELS:-"read-committed strong-session-read-committed strong-read-committed read-committed-be monotonic-atomic-view read-atomic
causal-cerone causal prefix parallel-snapshot-isolation snapshot-isolation strong-session-snapshot-isolation
strong-snapshot-isolation serializable strong-session-serializable strict-serializable"}
workloads=${ISOLDE_ORACLE_WORKLOADS:-"list-append rw-register"}
# What isolde claims complete, as `isolde models NAME` says it ("list-append: complete; ...").
claims() {
    for m in $models; do
        "$isolde" models "$m" | sed -n 's/^ *list-append: \([a-z ]*\); rw-register: \([a-z ]*\)$/\1;\2/p' |
            while IFS=';' read -r la rw; do
                [ "$la" = complete ] && printf 'list-append:%s ' "$m"
                [ "$rw" = complete ] && printf 'rw-register:%s ' "$m"
            done
    done
}
[ -x "$tool" ] || { echo "oracle: $tool not built (make tests)"; exit 1; }
[ -x "$isolde" ] || { echo "oracle: $isolde not built"; exit 1; }
complete=${ISOLDE_ORACLE_COMPLETE:-$(claims)}
case $out in /*) ;; *) out=$PWD/$out ;; esac
isolde_abs=$isolde
case $isolde_abs in /*) ;; *) isolde_abs=$PWD/$isolde ;; esac
start=$(date +%s)
rm -rf "$out"
mkdir -p "$out/disagree"
bad=0

"$tool" cases tests/data/oracle/textbook.txt || { echo "oracle: textbook cases FAILED"; bad=1; }
"$tool" selfcheck -n "$n" -s "$seed" >"$out/selfcheck.log" || bad=1
grep '^selfcheck: [0-9]* histories' "$out/selfcheck.log" | sed 's/; valid at:.*//'
[ "$bad" -eq 0 ] || { grep -v '^{' "$out/selfcheck.log" | head -n 20; }

summary=$out/disagree/summary.tsv
: >"$summary"
printf '%-13s %-34s %5s %5s %5s %5s %6s %6s %7s %8s %7s\n' workload model n ov oi agree unk/ov unk/oi \
    incompl unsnd-rc UNSOUND
for wl in $workloads; do
    for m in $models; do
        d=$out/histories/$wl/$m
        mkdir -p "$d"
        if ! "$tool" gen -w "$wl" -m "$m" -n "$n" -s "$seed" -o "$d" 2>"$d/gen.err"; then
            echo "oracle: the oracle rejects histories simulated at $m ($wl):"; head -n 5 "$d/gen.err"; bad=1
        fi
        # shellcheck disable=SC2035  # the generator names its files NNNNN.jsonl
        (cd "$d" && "$isolde_abs" check -m "$wl" -c "$m" --json *.jsonl >isolde.out 2>isolde.err)
        sed -n 's/^{"file":"\([^"]*\)","valid?": *"*\([a-z]*\)"*.*/\1	\2/p' "$d/isolde.out" >"$d/isolde.tsv"
        row=$(awk -F'\t' -v wl="$wl" -v m="$m" -v d="$d" -v dis="$out/disagree/$wl/$m" -v sum="$summary" '
            NR == FNR { iso[$1] = $2; next }
            {
                n++; ov += $5 == "valid"; oi += $5 == "invalid"; v = iso[$1]
                if (v == "") { missing++; next }
                if ((v == "true") == ($5 == "valid") && v != "unknown") { agree++; next }
                if (v == "unknown") { if ($5 == "valid") uv++; else ui++; next }
                if (v == "true") { cls = "incomplete"; inc++ }
                else if ($6 == "invalid") { cls = "unsound-rc"; urc++ }
                else { cls = "UNSOUND"; uns++ }
                file = sprintf("%s/%s/%03d-%s", dis, cls, $2, $1)
                system("mkdir -p \"" dis "/" cls "\" && cp \"" d "/" $1 "\" \"" file "\"")
                printf "%s\t%s\t%s\t%s\t%d\t%s\n", wl, m, cls, file, $2, $3 >> sum
            }
            END { printf "%d %d %d %d %d %d %d %d %d %d\n", n, ov, oi, agree, uv, ui, inc, urc, uns, missing }
        ' "$d/isolde.tsv" "$d/oracle.tsv")
        # shellcheck disable=SC2086  # row is ten numbers, split on purpose
        set -- $row
        printf '%-13s %-34s %5s %5s %5s %5s %6s %6s %7s %8s %7s\n' "$wl" "$m" "$1" "$2" "$3" "$4" "$5" "$6" \
            "$7" "$8" "$9"
        if [ "${10}" -gt 0 ]; then
            echo "oracle: isolde gave no verdict for ${10} histories of $d:"; head -n 5 "$d/isolde.err"; bad=1
        fi
        [ "$9" -gt 0 ] && bad=1
        case " $(echo $complete) " in
        *" $wl:$m "*) [ "$7" -gt 0 ] && { echo "oracle: isolde claims complete at $m ($wl) but missed $7"; bad=1; } ;;
        esac
    done
done
echo "oracle: disagreements kept in $out/disagree (summary.tsv), $(($(date +%s) - start)) s"
[ "$bad" -eq 0 ]
