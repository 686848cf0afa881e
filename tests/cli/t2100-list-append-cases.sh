#!/bin/sh
# The list-append cases of tests/data/list_append (NAME.edn, NAME.expect;
# format in tests/data/README, shared with the unit test
# tests/unit/elle/list_append/test_list_append.c) through
# `isolde check --json`: exit status, anomaly-types and not, one named case
# per file. tests/tools/expect_cases.py runs isolde on them all at once.
. tests/clilib.sh "$@"
cases=tests/data/list_append

test_case "the cases run" <<'T'
ls "$cases"/*.edn >/dev/null
mkdir "$tmp/results"
python3 tests/tools/expect_cases.py "$isolde" "$cases" "$tmp/results"
T

for f in "$cases"/*.edn; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .edn)
    want=$(sed -e 's/: */ /' -e 's/^anomaly-types \(.*\)$/anomaly-types [\1]/' -e 's/^not \(.*\)$/not [\1]/' "$tmp/results/$name.want" 2>/dev/null | paste -s -d ';' - | sed 's/;/; /g')
    test_case "$f: ${want:-no result}" <<'T'
test "$(head -c 1 "$f")" = ";" || { echo "does not open with a ; comment saying what it proves"; false; }
diff -u "$tmp/results/$name.want" "$tmp/results/$name.got"
T
done

test_case "every .expect in $cases has its .edn" <<'T'
for e in "$cases"/*.expect; do test -f "${e%.expect}.edn" || { echo "$e: no ${e%.expect}.edn"; false; }; done
T

finish
