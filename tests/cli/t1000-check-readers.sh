#!/bin/sh
# The readers through `isolde check`: every malformed input of
# tests/fixtures/read/bad (EXPECTED: file, line:col, message, tab-separated)
# is an error, exit 3, reported as file:line:col: message.
. tests/clilib.sh "$@"

tab=$(printf '\t')
while IFS="$tab" read -r file pos msg; do
    [ -n "$file" ] || continue
    f=tests/fixtures/read/bad/$file
    test_case "malformed $file fails at $pos: $msg" <<'T'
expect_status 3 "$isolde" check "$f"
grep -qF -- "$f:$pos: $msg" "$tmp/err"
T
done < tests/fixtures/read/bad/EXPECTED

finish
