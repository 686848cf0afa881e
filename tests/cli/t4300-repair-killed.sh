#!/bin/sh
# What a killed writer leaves. `isolde check` reads a history of one op per
# line whose last line, without a newline, ends inside a value (cut short)
# without that line, saying so. `isolde repair FILE` makes such a file whole
# in place: the filler after its last line (the spaces a SIGKILLed `isolde
# run` leaves, the blank lines older versions left) goes, a last line cut
# short is dropped, the lines before are never changed; a file that is not
# one op per line (its first line that is not blank or a comment is no op)
# is left as it is (exit 3).
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

test_case "check: a killed run's history, its last line cut short, is checked without that line, saying so" <<'T'
"$isolde" run sim -n 300 -o "$tmp/run.jsonl" >/dev/null
n=$(wc -l <"$tmp/run.jsonl")
head -c -40 "$tmp/run.jsonl" >"$tmp/cut.jsonl"
expect_status 0 "$isolde" check "$tmp/cut.jsonl"
expect_out '^valid?: true'
expect_err "^$tmp/cut.jsonl:$n:1: warning: line $n, the last, is cut short (it has no newline and does not parse: unexpected end of input"
expect_err 'left out, the lines before it are checked (isolde repair removes it)'
expect_status 0 "$isolde" check --json "$tmp/cut.jsonl"
expect_err 'cut short'
T

test_case "check: a whole last line without its newline reads as ever, a wrong one is an error" <<'T'
head -c -1 "$tmp/whole.jsonl" >"$tmp/nonl.jsonl"
expect_status 0 "$isolde" check "$tmp/nonl.jsonl"
not grep -q warning "$tmp/err"
cp "$tmp/whole.jsonl" "$tmp/bad.jsonl"
printf '{"index":4,"type":"ok","process":0,"value":null,"time":"x"}' >>"$tmp/bad.jsonl"
expect_status 3 "$isolde" check "$tmp/bad.jsonl"
expect_err 'bad.jsonl:5:1: "time" must be an integer'
cp "$tmp/whole.jsonl" "$tmp/wrong.jsonl"
printf '{"index":4,"type":"ok" "process":0' >>"$tmp/wrong.jsonl"
expect_status 3 "$isolde" check "$tmp/wrong.jsonl"
expect_err "wrong.jsonl:5:24: unexpected '\"', expected ',' or '}' in object"
T

test_case "a Markdown file (the project's README too) is no history: left as it is, exit 3" <<'T'
printf '# Title\n\nSome text.\nThe last line\n' >"$tmp/notes.md"
cp "$tmp/notes.md" "$tmp/notes.orig"
expect_status 3 "$isolde" repair "$tmp/notes.md"
expect_err 'notes.md: its first line that is not blank or a comment is not an op by itself'
cmp "$tmp/notes.md" "$tmp/notes.orig"
cp README.md "$tmp/README.md"
expect_status 3 "$isolde" repair "$tmp/README.md"
cmp "$tmp/README.md" README.md
printf '# only comments\n\n# and blank lines\n' >"$tmp/comments.jsonl"
expect_status 3 "$isolde" repair "$tmp/comments.jsonl"
expect_err 'no line of it is an op'
T

test_case "comment lines before the first op (IsoCheck) are no obstacle" <<'T'
printf '# an IsoCheck header\n\n' >"$tmp/f.jsonl"
cat "$tmp/whole.jsonl" >>"$tmp/f.jsonl"
cp "$tmp/f.jsonl" "$tmp/f.want"
printf '{"index":4,"ty' >>"$tmp/f.jsonl"
expect_status 0 "$isolde" repair "$tmp/f.jsonl"
expect_out 'dropped its last line'
cmp "$tmp/f.jsonl" "$tmp/f.want"
T

test_case "a file that does not exist is an error" <<'T'
expect_status 3 "$isolde" repair "$tmp/no-such.jsonl"
T

test_case "repair without a file is a usage error" <<'T'
expect_status 3 "$isolde" repair
T

finish
