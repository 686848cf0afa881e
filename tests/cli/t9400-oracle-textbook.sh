#!/bin/sh
# The brute-force oracle of the consistency models (tests/tools/oracle/,
# which tests/oracle.sh compares isolde with): every textbook case of
# tests/data/oracle/textbook.txt gets the verdicts the literature gives it,
# so does every history of tests/data/oracle/findings/FINDINGS.tsv, its
# self-check finds the models' verdicts related as their definitions say,
# and its JSON lines reader and writer agree.
. tests/clilib.sh "$@"
oracle=$build/tests/tools/oracle/oracle
cases=tests/data/oracle/textbook.txt

test_case "the oracle is built" 'test -x "$oracle"'

for name in $("$oracle" cases --list "$cases"); do
    test_case "textbook: $name" "\"\$oracle\" cases --only '$name' \"\$cases\""
done

# The findings (histories isolde and the oracle disagree on) keep their
# oracle verdicts.
tab=$(printf '\t')
while IFS="$tab" read -r file wl model _iso verdict _why; do
    case "$file" in ''|'#'*) continue ;; esac
    w=la
    [ "$wl" = rw-register ] && w=rw
    test_case "finding $file: the oracle says $verdict at $model" <<T
expect_status 0 "\$oracle" check -w $w -m $model tests/data/oracle/findings/$file
expect_out '	$model	$verdict\$'
T
done <tests/data/oracle/findings/FINDINGS.tsv

test_case "self-check: 300 random histories per workload" <<'T'
expect_status 0 "$oracle" selfcheck -n 300 -s 1
expect_out '600 histories, [0-9]* relations each, 0 failed'
T

test_case "a case written as JSON lines is read back with the same verdicts" <<'T'
"$oracle" case-jsonl "$cases" long-fork >"$tmp/lf.jsonl"
expect_status 0 "$oracle" check -w rw -m parallel-snapshot-isolation,snapshot-isolation "$tmp/lf.jsonl"
expect_out 'parallel-snapshot-isolation	valid'
expect_out 'snapshot-isolation	invalid'
T

test_case "isolde reads the oracle's JSON lines" <<'T'
"$oracle" case-jsonl "$cases" g1c >"$tmp/g1c.jsonl"
expect_status 1 "$isolde" check -m list-append -c read-committed "$tmp/g1c.jsonl"
expect_out 'G1c'
T

test_case "a history the oracle cannot read is an error with its line" <<'T'
printf '{"type":"invoke","process":0,"value":[["r","x",null]]}\n{"type":"ok","process":0,"value":[["r","x",[1,]]]}\n' >"$tmp/bad.jsonl"
expect_status 2 "$oracle" check -w la -m serializable "$tmp/bad.jsonl"
expect_err 'bad.jsonl:2: '
T

test_case "the witness names the order and what each transaction sees" <<'T'
"$oracle" case-jsonl "$cases" write-skew >"$tmp/ws.jsonl"
expect_status 0 "$oracle" check -v -w rw -m snapshot-isolation "$tmp/ws.jsonl"
expect_out '^order: T[01] T[01]$'
expect_out 'sees {}'
T

finish
