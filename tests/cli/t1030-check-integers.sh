#!/bin/sh
# Integers of any size through `isolde check` (tests/data/read/ints, each
# history's header saying what the check must answer: tests/data/README):
# processes past 2^59 are clients, :time keeps Unix-epoch nanoseconds, and
# keys and elements at and past the 64-bit limits are kept exactly in every
# reader (EDN, JSON, JSON lines, history.txt, jepsen.log, OneLite), in the
# verdict and in the proof. The unit tests of tests/unit/history/ read the
# same files.
. tests/clilib.sh "$@"

test_cases tests/data/read/ints

finish
