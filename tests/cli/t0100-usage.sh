#!/bin/sh
# Usage errors of `isolde check` and `isolde run` (backend-independent):
# each exits 3, the status of an error, never a verdict.
. tests/clilib.sh "$@"

test_case "check without a history is a usage error" <<'T'
expect_status 3 "$isolde" check
T

test_case "unknown model is a usage error naming the model" <<'T'
expect_status 3 "$isolde" check -c no-such-model examples/valid.jsonl
expect_err "unknown consistency model: no-such-model"
T

test_case "check: an unknown option is a usage error" <<'T'
expect_status 3 "$isolde" check --bogus examples/valid.jsonl
T

test_case "check: a history file that does not exist is an error" <<'T'
expect_status 3 "$isolde" check "$tmp/does-not-exist.edn"
T

test_case "check: a cycle-search timeout that is not a number is a usage error" <<'T'
expect_status 3 "$isolde" check -s abc examples/valid.jsonl
T

test_case "run without a backend is a usage error" <<'T'
expect_status 3 "$isolde" run
T

test_case "run: an unknown backend is a usage error" <<'T'
expect_status 3 "$isolde" run nosuchdb
T

test_case "run sim: an unknown isolation level is a usage error" <<'T'
expect_status 3 "$isolde" run sim -i chaos
T

test_case "run sim: a negative -n is a usage error" <<'T'
expect_status 3 "$isolde" run sim -n -5
T

test_case "run sim: a read ratio above 1 is a usage error" <<'T'
expect_status 3 "$isolde" run sim --read-ratio 2
T

test_case "run sim: an unknown option is a usage error" <<'T'
expect_status 3 "$isolde" run sim --bogus
T

finish
