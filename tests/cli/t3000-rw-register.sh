#!/bin/sh
# `isolde check -m rw-register` on the cases of tests/data/rw_register
# (each history's header says the options and what the check must answer:
# tests/data/README): verdicts under each source of version-order evidence,
# direct anomalies with their JSON and text, garbage reads, cyclic
# versions, the transaction-order file and its errors, workload errors at
# file:line:col. The unit test tests/unit/workload/rw_register/
# test_rw_register.c checks the same headers through the library, and
# their edge: lines through the workload's analysis.
. tests/clilib.sh "$@"

test_cases tests/data/rw_register

finish
