#!/bin/sh
# `isolde repair FILE`: a history of one op per line that a killed writer
# left, made whole in place: the filler after its last line (the spaces a
# SIGKILLed `isolde run` leaves, the blank lines older versions left) goes,
# a last line cut short is dropped, the lines before are never changed; a
# file that is not one op per line is left as it is (exit 3).
. tests/clilib.sh "$@"

head -n 4 examples/valid.jsonl >"$tmp/whole.jsonl"

test_case "a whole history: nothing to repair, unchanged" <<'T'
cp "$tmp/whole.jsonl" "$tmp/a.jsonl"
expect_status 0 "$isolde" repair "$tmp/a.jsonl"
expect_out 'nothing to repair'
cmp "$tmp/a.jsonl" "$tmp/whole.jsonl"
T

test_case "blank lines after the last op (older isolde after SIGKILL) are removed" <<'T'
cp "$tmp/whole.jsonl" "$tmp/b.jsonl"
awk 'BEGIN { for (i = 0; i < 100000; i++) print "" }' >>"$tmp/b.jsonl"
expect_status 0 "$isolde" repair "$tmp/b.jsonl"
expect_out '100000 bytes after its last op removed'
cmp "$tmp/b.jsonl" "$tmp/whole.jsonl"
T

test_case "the last op's newline after a run of spaces (isolde run after SIGKILL) is put back" <<'T'
head -c -1 "$tmp/whole.jsonl" >"$tmp/c.jsonl"
awk 'BEGIN { for (i = 0; i < 70000; i++) printf " "; print "" }' >>"$tmp/c.jsonl"
expect_status 0 "$isolde" repair "$tmp/c.jsonl"
cmp "$tmp/c.jsonl" "$tmp/whole.jsonl"
T

test_case "a last line cut short is dropped, saying so" <<'T'
cp "$tmp/whole.jsonl" "$tmp/d.jsonl"
printf '{"index":4,"type":"ok","proc' >>"$tmp/d.jsonl"
expect_status 0 "$isolde" repair "$tmp/d.jsonl"
expect_out 'dropped its last line (from byte [0-9]*), which was cut short'
cmp "$tmp/d.jsonl" "$tmp/whole.jsonl"
expect_status 0 "$isolde" repair "$tmp/d.jsonl"
expect_out 'nothing to repair'
T

test_case "a history that is not one op per line is left as it is, exit 3" <<'T'
cp examples/g1c.json "$tmp/e.json"
printf '\n\n\n' >>"$tmp/e.json"
cp "$tmp/e.json" "$tmp/e.orig"
expect_status 3 "$isolde" repair "$tmp/e.json"
expect_err 'not an op by itself'
cmp "$tmp/e.json" "$tmp/e.orig"
T

test_case "a file that does not exist is an error" <<'T'
expect_status 3 "$isolde" repair "$tmp/no-such.jsonl"
T

test_case "repair without a file is a usage error" <<'T'
expect_status 3 "$isolde" repair
T

finish
