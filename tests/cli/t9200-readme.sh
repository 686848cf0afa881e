#!/bin/sh
# README.md's examples, run (tests/tools/readme_blocks.py takes the blocks
# apart): the C library example built against the static library as
# installed (BUILD/dist/libisolde.a, only isolde_* visible; BUILD/libisolde.a
# where the build has no dist/) with the Makefile's LDLIBS (isolde.pc's
# Libs.private), on examples/g1c.json (exit 1) and on a missing file (exit
# 3, "cannot open"); the text report block, which must be what `isolde check
# examples/g1c.json` ends with; every sh block, run as written from the
# checkout, in which every isolde must end in a verdict (0, 1 or 2), never an
# error (3), the blocks naming the servers' variables against the suite's
# servers; and every example in examples/, which must check as its header
# says (tests/data/README's convention, tests/tools/case.c's runner). A
# block marked "not run" says why (make demo and make check: make demo
# installs packages, make check runs this suite).
. tests/clilib.sh "$@"
export TMPDIR="$tmp" # temporary databases
r=$tmp/readme
mkdir "$r" "$tmp/bin"
tab=$(printf '\t')

test_case "README.md has its C example, its text report and its blocks, each saying what it is" <<'T'
python3 tests/tools/readme_blocks.py README.md "$r"
T

# The README's sh blocks, each a script of its own run with sh -e in a
# directory of its own (which sees the checkout's examples/ and tests/),
# with `isolde` on PATH being tests/tools/readme_isolde.sh, which runs this
# build's and records each command's exit status in $r/blockN.status: the script
# must succeed, and every isolde in it end in a verdict (0 valid, 1 invalid,
# 2 unknown), never an error (3). The servers are the suite's
# (tests/servers/up.sh; Galera as need_galera starts it), their passwords
# in PGPASSWORD and MYSQL_PWD as the README's examples take them; blocks
# that use them run one after another, the others all at once beside them.
ln -s "$PWD/tests/tools/readme_isolde.sh" "$tmp/bin/isolde"
export ISOLDE_README_REAL
ISOLDE_README_REAL=$(cd "$(dirname "$isolde")" && pwd)/$(basename "$isolde")
run_block() { # N: runs blockN.sh; its output in blockN.out, its status in blockN.rc
    mkdir "$r/cwd$1"
    ln -s "$PWD/examples" "$PWD/tests" "$r/cwd$1/"
    : >"$r/block$1.status"
    (cd "$r/cwd$1" && ISOLDE_README_STATUS=$r/block$1.status PATH="$tmp/bin:$PATH" PGPASSWORD="${ISOLDE_PG_PASSWORD:-}" \
        MYSQL_PWD="${ISOLDE_MYSQL_PASSWORD:-}" TMPDIR=$tmp sh -e "$r/block$1.sh" >"$r/block$1.out" 2>&1 </dev/null
     echo $? >"$r/block$1.rc")
}
[ -f "$r/blocks" ] && while IFS="$tab" read -r n section line needs; do
    [ "$needs" = - ] && run_block "$n" &
done <"$r/blocks"

san=""; [ -n "${ISOLDE_SANITIZE:-}" ] && san="-fsanitize=address,undefined" # a sanitized library
lib=$build/dist/libisolde.a; [ -f "$lib" ] || lib=$build/libisolde.a
test_case "the C example builds against $lib without a warning" <<'T'
libs=$(sed -n 's/^Libs.private: //p' "$build/isolde.pc")
${CC:-cc} $san -std=c17 -Wall -Wextra -Werror -Iinclude -I"$build/gen" -o "$r/example" "$r/example.c" "$lib" $libs
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

# Every example names in its first lines how to check it (`check: OPTIONS`)
# and what that says (`status: N`), where its format has comments: a
# header as tests/data's (tests/data/README), run by the same runner; an
# example without one (its format has none) must end in a verdict.
for f in examples/*; do
    case $f in *.py) continue ;; esac
    case $(head -c 1 "$f") in
        ';' | '#') test_case "$f: $("$casetool" what "$f")" "\"\$casetool\" check \"\$isolde\" $f" ;;
        *) test_case "$f (no header) ends in a verdict" <<'T'
st=0
"$isolde" check "$f" >/dev/null 2>"$tmp/err" || st=$?
cat "$tmp/err"
case $st in [012]) ;; *) echo "exit $st, not a verdict"; false ;; esac
T
        ;;
    esac
done

block_case() { # N SECTION LINE
    b=$r/block$1
    test_case "README line $3 ($2): the block runs, every isolde in it ends in a verdict" <<'T'
cp "$b.out" "$tmp/out"
cat "$b.status"
test "$(cat "$b.rc")" = 0 || { tail -n 20 "$b.out"; false; }
test -s "$b.status"
not grep -v '^[012] isolde ' "$b.status"
T
}
missing_server() { # pg,mysql,...: the variable of the first server that is not here
    for s in $(echo "$1" | tr , ' '); do
        case $s in
            pg) [ -n "${ISOLDE_PG_URL:-}" ] || { echo ISOLDE_PG_URL; return; } ;;
            mysql) [ -n "${ISOLDE_MYSQL_URL:-}" ] || { echo ISOLDE_MYSQL_URL; return; } ;;
            etcd) [ -n "${ISOLDE_ETCD_URLS:-}" ] || { echo ISOLDE_ETCD_URLS; return; } ;;
            galera) [ -n "${ISOLDE_GALERA_URLS:-}" ] || { echo ISOLDE_GALERA_URLS; return; } ;;
        esac
    done
}
wait
while IFS="$tab" read -r n section line needs <&3; do
    [ "$needs" = - ] && { block_case "$n" "$section" "$line"; continue; }
    case ",$needs," in *,galera,*) galera_up ;; esac
    missing=$(missing_server "$needs")
    if [ -z "$missing" ]; then
        run_block "$n"
        block_case "$n" "$section" "$line"
        continue
    fi
    why="tests/servers/up.sh starts its server"
    [ "$missing" = ISOLDE_GALERA_URLS ] && why=$(printf '%s' "${galera_why:-$why}" | tr -d "'")
    if [ "${CI:-}" = true ]; then
        test_case "README line $line ($section): $missing is set under CI=true" "echo '$why'; false"
    else
        test_skip "README line $line ($section)" "$missing is not set: $why"
    fi
done 3<"$r/blocks"
while IFS="$tab" read -r section line reason; do
    test_skip "README line $line ($section)" "not run: $reason"
done <"$r/skipped"

finish
