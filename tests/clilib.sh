# clilib.sh -- sourced by the CLI test scripts in tests/cli: the build
# directory ($1), the binary ($ISOLDE), a scratch directory, and counters.
build=${1:-build}
isolde=${ISOLDE:-$build/isolde}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_status WANT COMMAND...: run it (stdout to $tmp/out, stderr to
# $tmp/err) and count whether it exited WANT.
expect_status() {
    want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    if [ "$got" = "$want" ]; then ok; else bad "$* -> exit $got, wanted $want"; tail -5 "$tmp/err"; fi
}

# expect_out PATTERN: the last command's stdout contains it.
expect_out() {
    grep -q -- "$1" "$tmp/out" && ok || { bad "output lacks '$1'"; head -20 "$tmp/out"; }
}

# finish NAME: print the closing count; exit 1 on any failure.
finish() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}
