#!/bin/sh
# The histories of the literature (tests/data/literature): the fractured
# reads, causality violations and long forks of Elle's issues 17, 21 and
# 25, elle-cli's issue 47, the CockroachDB and Galera reports of Plume's
# authors, Plume's 14 transactional anomalous patterns (TAPs) and the long
# fork, and the SI violations PolySI found in MariaDB-Galera, YugabyteDB
# and Dgraph (in its formats) and the histories of its unit tests (README:
# sources). Each header has one `check:` run per model: isolde must answer
# it (test_cases), and the brute-force oracle of tests/tools/oracle, which
# decides each model by its axioms, must agree with every run's status:
# valid for 0, invalid for 1 (2, unknown, claims nothing), or the run's
# `oracle:` where isolde, sound only at that model, answers otherwise
# (docs/MODELS.md: prefix's long forks, causal-cerone on list-append, the
# session models and causal from SI up on rw-register). The oracle's
# verdict at a model is taken with its verdict at read-committed (issue
# 25's one lattice: every weak model implies Elle's read-committed), but
# for read-committed-be, Biswas and Enea's, which stands beside it.
. tests/clilib.sh "$@"
oracle=$build/tests/tools/oracle/oracle

# oracle_agrees FILE: each run's status is the oracle's verdict (a file in
# another format: its header in FILE.case, the history converted).
oracle_agrees() {
    _h=$1
    case $1 in
        *.jsonl) grep -v '^#' "$1" >"$tmp/history.jsonl" ;;
        *) _h=$1.case; "$isolde" convert "$1" -t jsonl -o "$tmp/history.jsonl" ;;
    esac
    awk 'function flush() { if (m != "") print wl, m, (orc == "" ? st : orc == "invalid" ? 1 : 0) }
         /^[#;] check:/ { flush(); wl = $4; m = $6; st = ""; orc = "" }
         /^[#;] status:/ { st = $3 } /^[#;] oracle:/ { orc = $3 } END { flush() }' "$_h" >"$tmp/runs"
    test -s "$tmp/runs"
    _bad=0
    while read -r _wl _model _status; do
        [ "$_status" = 2 ] && continue
        _w=la
        [ "$_wl" = rw-register ] && _w=rw
        case $_model in
            read-committed*) _models=$_model ;;
            *) _models=$_model,read-committed ;;
        esac
        "$oracle" check -w $_w -m "$_models" "$tmp/history.jsonl" >"$tmp/verdicts"
        test "$(wc -l <"$tmp/verdicts")" -ge 1
        _got=$(awk -F'\t' '{ printf " %s=%s", $2, $3 }' "$tmp/verdicts")
        _v=0
        case "$_got" in *=invalid*) _v=1 ;; esac
        if [ "$_v" != "$_status" ]; then
            echo "$1: at $_model the header says status $_status; the oracle:$_got"
            _bad=1
        fi
    done <"$tmp/runs"
    return $_bad
}

test_case "the oracle is built" 'test -x "$oracle"'

test_cases tests/data/literature

# PolySI's YugabyteDB and Dgraph histories have too many keys for the oracle.
for f in tests/data/literature/*.jsonl tests/data/literature/polysi-galera.txt; do
    test_case "$f: the oracle gives each run's status" "oracle_agrees $f"
done

finish
