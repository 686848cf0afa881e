#!/bin/sh
# The readers through `isolde check`: the cases of tests/data/read, each
# history's header saying what the check must answer (tests/data/README) --
# every format read and detected (history.txt also with -f jepsen-txt, an
# etcd history.txt with -f jepsen-log: none of its lines is one), and every
# malformed file of tests/data/read/bad an error, exit 3, reported as
# file:line:col: message (a binary format's: at byte N), AWDIT's own examples
# (tests/data/read/awdit) with its verdicts; then every row of tests/data/read/malformed.tsv
# (the malformed inputs of every reader, written to a file and checked with
# its -f). The unit tests of tests/unit/history/ read the same files.
. tests/clilib.sh "$@"

test_cases tests/data/read
test_cases tests/data/read/bad
test_cases tests/data/read/awdit
test_rows tests/data/read/malformed.tsv

finish
