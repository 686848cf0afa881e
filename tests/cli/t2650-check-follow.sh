#!/bin/sh
# isolde check --follow (issue 27, docs/ONLINE.md): a history checked as it
# grows. At its end the report is the batch check's, byte for byte, on every
# level of the sim and on the Elle corpus's list-append histories; every
# anomaly it calls certain early is among the final ones; a certain anomaly
# is printed while the writer is still writing; a bad line mid-stream is an
# error at its file:line:col. isolde run --live --stop-on-anomaly stops the
# run at the first certain anomaly. Jepsen's bank and counter histories have
# their findings early too (each among the batch's errors), and the batch's
# report at the end.
. tests/clilib.sh "$@"

# A history of the sim (list-append, checked by none): LEVEL SEED N FILE
sim() { "$isolde" run sim -i "$1" -m list-append --seed "$2" -n "$3" -c '' -o "$4" >/dev/null 2>&1 || [ $? = 2 ]; }

# Wait (up to 60 s) until FILE has a line matching PATTERN.
wait_for() { i=0; while [ $i -lt 600 ]; do grep -q -- "$2" "$1" && return 0; sleep 0.1; i=$((i + 1)); done; return 1; }

# The sim's levels, as its help lists them.
levels=$("$isolde" run --help | sed -n '/^  -i L .*strict-serializable (default)/,/--abort-rate/p' | grep -v -e --abort-rate |
         sed 's/^  -i L *//; s/(default)//' | tr -d ' \n' | tr , ' ')

# FILE [OPTIONS]: --follow at the file's end prints what the batch check
# prints (stdout, exit status), text and JSON; every type --follow called
# certain is found by the batch check asked to look for it (-a: it, or an
# anomaly that implies it, as G-single-item does G-single-item-realtime).
same_as_batch() {
    f=$1; shift
    for fmt in "" --json; do
        st=0; "$isolde" check "$@" $fmt "$f" >"$tmp/batch" 2>"$tmp/batch.err" || st=$?
        echo "exit $st" >>"$tmp/batch"
        st=0; "$isolde" check --follow --follow-timeout 0 "$@" $fmt "$f" >"$tmp/follow" 2>"$tmp/follow.err" || st=$?
        echo "exit $st" >>"$tmp/follow"
        cmp "$tmp/batch" "$tmp/follow"
    done
    for t in $(sed -n 's/^isolde: certain: //p' "$tmp/follow.err" | sort -u); do
        "$isolde" check "$@" -c '' -a "$t" "$f" >"$tmp/asked" 2>&1 || true
        grep -q '^valid?: false' "$tmp/asked"
    done
}

# FILE OPTIONS: as same_as_batch, for Jepsen's checkers: each type called
# certain is on the batch report's "errors:" line.
same_as_jepsen() {
    f=$1; shift
    st=0; "$isolde" check "$@" "$f" >"$tmp/batch" 2>/dev/null || st=$?
    echo "exit $st" >>"$tmp/batch"
    st=0; "$isolde" check --follow --follow-timeout 0 "$@" "$f" >"$tmp/follow" 2>"$tmp/follow.err" || st=$?
    echo "exit $st" >>"$tmp/follow"
    cmp "$tmp/batch" "$tmp/follow"
    for t in $(sed -n 's/^isolde: certain: //p' "$tmp/follow.err" | sort -u); do
        grep -q "^errors: .*$t" "$tmp/batch"
    done
}

test_case "the sim has levels to follow" '[ $(echo $levels | wc -w) -ge 10 ]'

for lv in $levels; do
    test_case "--follow at the end prints the batch's report: sim $lv, list-append" <<T
sim $lv 7 2000 "\$tmp/$lv.jsonl"
same_as_batch "\$tmp/$lv.jsonl"
same_as_batch "\$tmp/$lv.jsonl" -c serializable,snapshot-isolation,read-committed
T
done

# Jepsen's bank and counter (tests/data/jepsen): every error --follow calls
# certain is one of the batch's (its errors: line), and the report at the
# end is the batch's.
for f in tests/data/jepsen/bank-*.edn tests/data/jepsen/counter-*; do
    m=${f##*/}; m=${m%%-*}
    test_case "--follow, $m: early errors among the batch's, the batch's report at the end: $f" <<T
same_as_jepsen "$f" -m $m
T
done

# Every prefix, checked early as a stream would, finds only what the whole
# file's batch check finds (tests/tools/prefixes.c): the rows of
# tests/data/online/prefixes.txt, and generated histories with anomalies.
prefixes=$build/tests/tools/prefixes
grep -v '^#' tests/data/online/prefixes.txt >"$tmp/prefix-rows"
while read -r f args; do
    test_case "every prefix's early findings are the whole's: $f $args" <<T
eval "\"\$prefixes\" $args tests/data/$f" >"\$tmp/out"
grep -q ', all among the batch.s$' "\$tmp/out"
T
done <"$tmp/prefix-rows"
for seed in 1 2 3; do
    test_case "every prefix's early findings are the whole's: generated, seed $seed (rw-register, register, kv)" <<T
"$build/bench/gen_history" -m rw-register -n 200 -a -s $seed >"\$tmp/rw.jsonl"
"\$prefixes" -m rw-register -c serializable "\$tmp/rw.jsonl" | grep ', [1-9][0-9]* early findings, all among'
"$build/bench/gen_lin" register 200 1 4 $seed edn 30 1 >"\$tmp/reg.edn"
"\$prefixes" -m register "\$tmp/reg.edn" | grep ', [1-9][0-9]* early findings, all among'
"$build/bench/gen_lin" kv 300 3 4 $seed jsonl 30 1 >"\$tmp/kv.jsonl"
"\$prefixes" -m kv "\$tmp/kv.jsonl" | grep ', [1-9][0-9]* early findings, all among'
T
done

test_case "--follow - reads standard input to its end, as check - does" <<'T'
sim read-committed 2 500 "$tmp/rc.jsonl"
st=0; "$isolde" check - <"$tmp/rc.jsonl" >"$tmp/batch" 2>&1 || st=$?
[ $st = 1 ]
st=0; "$isolde" check --follow - <"$tmp/rc.jsonl" >"$tmp/follow" 2>"$tmp/follow.err" || st=$?
[ $st = 1 ]
cmp "$tmp/batch" "$tmp/follow"
grep -q '^isolde: certain: ' "$tmp/follow.err"
grep -q '^isolde: <stdin>: [0-9]* ops read ([0-9.]* MB, [0-9.]* MB of it kept as text), [0-9]* transactions checked, [1-9][0-9]* certain anomalies so far' "$tmp/follow.err"
T

shared=${ISOLDE_SHARED:-../shared}
corpus=$shared/corpus/elle
if [ -f "$corpus/EXPECTED.tsv" ]; then
    files=$( (awk -F'\t' '$2 == "list-append" { print $1 }' "$corpus/EXPECTED.tsv"; cd "$corpus" && ls elle-unit-cases-edn/la-*.edn jepsen-io-elle/histories/*.edn) | sort -u)
    test_case "the corpus has list-append histories" '[ $(echo $files | wc -w) -ge 20 ]'
    for f in $files; do
        test_case "--follow at the end prints the batch's report: corpus $f" "same_as_batch '$corpus/$f' -m list-append"
    done
elif [ "${CI:-}" = true ]; then
    test_case "CI=true has the Elle corpus" 'echo "missing: $corpus"; false'
else
    test_skip "--follow on the Elle corpus" "$corpus not found"
fi

# A writer that stops halfway, through a FIFO (opened read-write, so that
# a checker gone cannot block it), until the checker has said
# an anomaly is certain (or 60 s have passed): the anomaly comes before
# the writer's second half, and the report at the end is the batch's.
test_case "a certain anomaly is printed while the writer is still writing" <<'T'
sim read-committed 3 2000 "$tmp/h.jsonl"
n=$(wc -l <"$tmp/h.jsonl")
mkfifo "$tmp/pipe"
"$isolde" check --follow "$tmp/pipe" >"$tmp/follow" 2>"$tmp/follow.err" &
pid=$!
exec 3<>"$tmp/pipe"
timeout 60 head -n $((n / 2)) "$tmp/h.jsonl" >&3
early=0
wait_for "$tmp/follow.err" '^isolde: certain: ' || early=$?
timeout 60 tail -n +$((n / 2 + 1)) "$tmp/h.jsonl" >&3
exec 3>&-
st=0; wait $pid || st=$?
[ $st = 1 ]
[ $early = 0 ]
"$isolde" check "$tmp/h.jsonl" >"$tmp/batch" || true
cmp "$tmp/batch" "$tmp/follow"
T

test_case "a bad line mid-stream is an error at its file:line:col, exit 3" <<'T'
sim strict-serializable 1 200 "$tmp/ok.jsonl"
head -n 100 "$tmp/ok.jsonl" >"$tmp/bad.jsonl"
printf '{"index":100,"type":"invoke","process":0,"f":"txn","value":[["r",1,nul]]}\n' >>"$tmp/bad.jsonl"
tail -n +102 "$tmp/ok.jsonl" >>"$tmp/bad.jsonl"
expect_status 3 "$isolde" check --follow --follow-timeout 0 "$tmp/bad.jsonl"
expect_err "^$tmp/bad.jsonl:101:[0-9]*: "
not grep -q . "$tmp/out"
expect_status 3 "$isolde" check --follow - <"$tmp/bad.jsonl"
expect_err "^<stdin>:101:[0-9]*: "
T

# isolde run --live --stop-on-anomaly: the run's history checked as it is
# written, the run ended at the first certain anomaly (a run long enough to
# be followed: the sim calls its progress ten times a second at most), its
# history checked (exit 1); without it the same run goes to its end.
test_case "run --live --stop-on-anomaly ends the run at the first certain anomaly" <<'T'
expect_status 1 "$isolde" run sim -i read-committed -c serializable -n 3000000 --stop-on-anomaly -o "$tmp/live.jsonl"
expect_err '^isolde: certain: '
expect_err 'stop-on-anomaly: stopped at the first certain anomaly'
expect_out '^history: .*live.jsonl (interrupted)$'
expect_out '^valid?: false'
[ $(wc -l <"$tmp/live.jsonl") -lt 6000000 ]
expect_status 1 "$isolde" run sim -i read-committed -c serializable -n 3000 --live -o "$tmp/short.jsonl"
not grep -q interrupted "$tmp/out"
T

test_case "--follow takes one file" <<'T'
expect_status 3 "$isolde" check --follow "$tmp/a" "$tmp/b"
expect_err 'check --follow takes one FILE'
T

finish
