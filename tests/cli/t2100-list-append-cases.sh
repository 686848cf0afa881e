#!/bin/sh
# The list-append cases of tests/data/list_append through `isolde check`
# and `isolde check --json`: each history's header (tests/data/README) says
# the options, the exit status, the anomaly types and Elle's :not; the unit
# test tests/unit/elle/list_append/test_list_append.c checks the same
# headers through the library.
. tests/clilib.sh "$@"

test_cases tests/data/list_append

finish
