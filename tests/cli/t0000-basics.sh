#!/bin/sh
# Basics: the binary runs, says its version, prints help, and refuses an
# unknown command.
. tests/clilib.sh "$@"

test_case "--version exits 0" <<'T'
expect_status 0 "$isolde" --version
T

test_case "an unknown command is a usage error" <<'T'
expect_status 3 "$isolde" frobnicate
T

test_case "check --help exits 0" <<'T'
expect_status 0 "$isolde" check --help
T

test_case "run --help exits 0 and lists the isolation levels" <<'T'
expect_status 0 "$isolde" run --help
expect_out 'read-uncommitted'
T

finish
