#!/bin/sh
# README.md's examples, run (tests/tools/readme_blocks.py takes the blocks
# apart and lists its placeholder substitutions): the C library example
# built against the static library as installed (BUILD/dist/libisolde.a,
# only isolde_* visible; BUILD/libisolde.a where the build has no dist/)
# with the Makefile's LDLIBS (isolde.pc's Libs.private), on
# examples/g1c.json (exit 1) and on a missing file (exit 3, "cannot open");
# the text report block, which must be what
# `isolde check examples/g1c.json` ends with; and every command line under
# "Checking a history", "Running against a database" and "Linearizability",
# which must end in a verdict (0, 1 or 2), never an error (3). The block at
# the top (make demo, make check) is not run: make demo installs packages,
# make check runs this suite.
. tests/clilib.sh "$@"
export TMPDIR="$tmp" # temporary databases
r=$tmp/readme
mkdir "$r" "$tmp/bin"
tab=$(printf '\t')

test_case "README.md has its C example, its text report and its commands" <<'T'
python3 tests/tools/readme_blocks.py README.md "$r"
T

# The commands run all at once in the background (each line has files of its
# own), with `isolde` on PATH being this build's, while the C example builds.
ln -s "$(cd "$(dirname "$isolde")" && pwd)/$(basename "$isolde")" "$tmp/bin/isolde"
have_sqlite=yes
"$isolde" run sqlite -n 1 -o "$tmp/probe.jsonl" 2>&1 | grep -q "unknown backend" && have_sqlite=
n=0
[ -f "$r/commands" ] && while IFS="$tab" read -r section written cmd; do
    n=$((n + 1))
    case "$written" in "isolde run sqlite"*) [ -n "$have_sqlite" ] || continue ;; esac
    # each in a directory of its own (isolde run writes its history there),
    # which sees the repository's examples/ and tests/
    mkdir "$r/cwd$n"
    ln -s "$PWD/examples" "$PWD/tests" "$r/cwd$n/"
    (cd "$r/cwd$n" && TMP=$tmp PATH="$tmp/bin:$PATH" sh -c "$cmd" >"$r/cmd$n.out" 2>"$r/cmd$n.err" </dev/null
     echo $? >"$r/cmd$n.rc") &
done <"$r/commands"

san=""; [ -n "${ISOLDE_SANITIZE:-}" ] && san="-fsanitize=address,undefined" # a sanitized library
lib=$build/dist/libisolde.a; [ -f "$lib" ] || lib=$build/libisolde.a
test_case "the C example builds against $lib without a warning" <<'T'
libs=$(sed -n 's/^Libs.private: //p' "$build/isolde.pc")
${CC:-cc} $san -std=c17 -Wall -Wextra -Werror -Iinclude -o "$r/example" "$r/example.c" "$lib" $libs
T

test_case "the C example finds the G1c of examples/g1c.json: exit 1" <<'T'
expect_status 1 "$r/example" examples/g1c.json
expect_out '^G1c #0$'
T

test_case "the C example on a missing file exits 3 saying it cannot open it" <<'T'
expect_status 3 "$r/example" "$tmp/no-such-history.edn"
expect_err 'no-such-history.edn.*cannot open'
T

test_case "the C example without a file exits 3" <<'T'
expect_status 3 "$r/example"
T

test_case "the README's text report is how isolde check examples/g1c.json ends" <<'T'
expect_status 1 "$isolde" check examples/g1c.json
first=$(head -n 1 "$r/report.txt")
at=$(grep -n -x -F -- "$first" "$tmp/out" | head -n 1 | cut -d: -f1)
test -n "$at" || { echo "the output has no line \"$first\""; false; }
tail -n +"$at" "$tmp/out" >"$r/report.actual"
diff -u "$r/report.txt" "$r/report.actual"
T

wait
n=0
[ -f "$r/commands" ] && while IFS="$tab" read -r section written cmd; do
    n=$((n + 1))
    case "$written" in "isolde run sqlite"*)
        [ -n "$have_sqlite" ] || { test_skip "README ($section): $written" "built without SQLite"; continue; } ;;
    esac
    test_case "README ($section): $written ends in a verdict" <<'T'
cp "$r/cmd$n.out" "$tmp/out"
cp "$r/cmd$n.err" "$tmp/err"
rc=$(cat "$r/cmd$n.rc")
echo "ran: $cmd"
case "$rc" in 0|1|2) ;; *) echo "exit $rc, wanted a verdict (0, 1 or 2)"; false ;; esac
T
done <"$r/commands"

finish
