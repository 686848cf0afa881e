# clilib.sh -- sourced by the CLI test scripts tests/cli/tNNNN-*.sh: named
# test cases in the shape of git's test_expect_success. It sets
#   build     the build directory ($1, default build)
#   isolde    the binary ($ISOLDE, default $build/isolde)
#   tmp       a scratch directory, removed on exit
#   script    the script's name (t2000-list-append)
#
#   test_case NAME <<'T'   runs the here-document's text up to the line T
#   ...                    (or the text BODY of test_case NAME 'BODY') as
#   T                      shell commands, in a subshell under `set -e`,
#       with its stdout and stderr kept; the case passes when the body exits
#       0. A failure prints "FAIL <script>: NAME", then what the body printed
#       and the tail of the last expect_status command's stdout and stderr.
#       Every command of a body must succeed, so write one per line: set -e
#       does not stop at a failure left of && or after `!`, and test_case
#       refuses bodies with either (use `not CMD`). Names are unique.
#   test_skip NAME REASON   a case that cannot run here (it is counted and
#       printed as skipped, never as passed).
#   needs_feature NAME      the cases after it (until needs_feature alone)
#       are skipped, saying why, when the build has not the optional
#       feature NAME (zlib, sqlite, libpq, mariadb, gvc, curl: the build's
#       "features:" line, kept in BUILD/features); have_feature NAME asks.
#   finish                  prints "<script>: N passed, M failed[, K skipped]"
#       and exits 1 on a failure (or when no case ran), 77 when every case
#       was skipped (run-all.sh says "skipped"), else 0.
#
# Helpers for bodies (each returns 1 with a message on stderr):
#   expect_status WANT CMD...  CMD exits WANT; its stdout is kept in
#                              $tmp/out, its stderr in $tmp/err
#   expect_out PATTERN         $tmp/out has a line matching PATTERN (grep)
#   expect_err PATTERN         $tmp/err has a line matching PATTERN
#   not CMD...                 CMD fails
# ISOLDE_TEST_VERBOSE=1 also prints "ok <script>: NAME" per passing case.
#
# Cases as data (tests/data/README): a history whose header says what
# `isolde check` must answer, run by tests/tools/case.c ($casetool):
#   test_cases DIR    one test case per case file of DIR, named by the file
#       and the first line of its header; it passes when each run of the
#       header agrees with isolde check and check --json, and its failure
#       names FILE:LINE of each header line that disagrees.
#   test_rows TABLE   one test case per row of a table of malformed inputs
#       (tests/data/read/malformed.tsv), named by TABLE:LINE.
build=${1:-build}
isolde=${ISOLDE:-$build/isolde}
casetool=$build/tests/tools/case
script=$(basename "$0" .sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0; skipped=0

# Helpers run untraced (the trace of a case shows the commands of its body).
_quiet() { _x=$-; }
_loud() { case $_x in *x*) set -x ;; esac; }

expect_status() { # WANT COMMAND...
    _quiet; { set +x; } 2>/dev/null
    _want=$1; shift
    _got=0
    "$@" >"$tmp/out" 2>"$tmp/err" || _got=$?
    [ "$_got" = "$_want" ] && { _loud; return 0; }
    echo "exit $_got, wanted $_want: $*" | _mask >&2
    _loud; return 1
}

expect_out() { # PATTERN
    _quiet; { set +x; } 2>/dev/null
    grep -q -- "$1" "$tmp/out" && { _loud; return 0; }
    echo "stdout lacks '$1'" >&2
    _loud; return 1
}

expect_err() { # PATTERN
    _quiet; { set +x; } 2>/dev/null
    grep -q -- "$1" "$tmp/err" && { _loud; return 0; }
    echo "stderr lacks '$1'" >&2
    _loud; return 1
}

not() { # COMMAND...
    _quiet; { set +x; } 2>/dev/null
    if "$@"; then echo "succeeded, but must fail: $*" >&2; _loud; return 1; fi
    _loud; return 0
}

# What a failure prints goes through _mask: a URL's password (the servers'
# are random, but secrets appear in no output) becomes ***.
_mask() { sed 's#\(://[^:/@ ]*\):[^@/ ]*@#\1:***@#g'; }

_tail() { # LABEL FILE: the file's last lines, indented
    [ -s "$2" ] || return 0
    echo "    --- $1 (tail):"
    tail -n "${3:-10}" "$2" | _mask | sed 's/^/    | /'
}

_case_failed() { # NAME WHY
    fail=$((fail + 1))
    echo "FAIL $script: $1"
    [ -n "$2" ] && echo "    $2"
    # The trace's last command (helpers are untraced) is the one that failed.
    _last=$(sed -n 's/^+@ //p' "$tmp/.log" | grep -v -e '^_quiet$' -e '^_x=' -e '^return [0-9]*$' | tail -n 1)
    [ -n "$_last" ] && echo "    failed: $_last" | _mask
    grep -v '^+@ ' "$tmp/.log" >"$tmp/.printed"
    _tail "what the case printed" "$tmp/.printed" 15
    _tail "stdout of the last expect_status (\$tmp/out)" "$tmp/out"
    _tail "stderr of the last expect_status (\$tmp/err)" "$tmp/err"
    return 0
}

_names='
'
test_case() { # NAME [BODY]; without BODY, the body is read from stdin
    if [ $# -ge 2 ]; then _body=$2; else
        _body=''
        while IFS= read -r _line; do _body="$_body$_line
"; done
    fi
    set -- "$1" "$_body"
    if [ -n "${_needs:-}" ]; then
        test_skip "$1" "isolde was built without $_needs: make deps as root installs its library, then make (WITHOUT= leaves it out)"
        return 0
    fi
    : >"$tmp/.log"; : >"$tmp/out"; : >"$tmp/err"
    case "$_names" in *"
$1
"*) _case_failed "$1" "(a second case of this name)"; return 0 ;;
    esac
    _names="$_names$1
"
    case "$2" in
        *'&&'*) _case_failed "$1" "(the body uses &&; write one command per line)"; return 0 ;;
        *'!'*) if printf '%s\n' "$2" | grep -q '^[[:space:]]*![[:space:]]'; then
                   _case_failed "$1" "(the body negates with !, which set -e ignores; use not CMD)"; return 0
               fi ;;
    esac
    ( PS4='+@ '; set -e; eval "set -x; $2" ) >"$tmp/.log" 2>&1 </dev/null
    _rc=$?
    if [ "$_rc" = 0 ]; then
        pass=$((pass + 1))
        [ -n "${ISOLDE_TEST_VERBOSE:-}" ] && echo "ok $script: $1"
    else
        _case_failed "$1" ""
    fi
    return 0
}

have_feature() { grep -qw -- "$1" "$build/features" 2>/dev/null; }

needs_feature() { # [NAME]
    _needs=
    [ -z "${1:-}" ] || have_feature "$1" || _needs=$1
}

test_skip() { # NAME REASON
    skipped=$((skipped + 1))
    echo "skip $script: $1 ($2)"
}

finish() {
    _s=""; [ "$skipped" -gt 0 ] && _s=", $skipped skipped"
    if [ $((pass + fail)) -eq 0 ] && [ "$skipped" -eq 0 ]; then
        echo "$script: no test case ran"; exit 1
    fi
    echo "$script: $pass passed, $fail failed$_s"
    [ "$fail" -gt 0 ] && exit 1
    [ "$pass" -eq 0 ] && exit 77
    exit 0
}

test_cases() { # DIR
    _list=$("$casetool" list "$1" 2>&1) || {
        test_case "$1 holds cases" "echo '$_list'; false"
        return 0
    }
    for _f in $_list; do
        test_case "$_f: $("$casetool" what "$_f")" "\"\$casetool\" check \"\$isolde\" $_f"
    done
}

test_rows() { # TABLE
    _rows=$("$casetool" rows "$1" 2>&1) || {
        test_case "$1 reads" "echo '$_rows' | tr -d \"'\"; false"
        return 0
    }
    printf '%s\n' "$_rows" | while IFS="$(printf '\t')" read -r _line _format _kind _msg; do
        printf '%s\n%s %s: %s\n' "$_line" "$_format" "$_kind" "$_msg"
    done >"$tmp/.rows"
    while read -r _line && IFS= read -r _what; do
        test_case "$1:$_line: $_what" "\"\$casetool\" row \"\$isolde\" $1 $_line"
    done <"$tmp/.rows"
}

# need_server VAR WHAT [WHY]: the rest of the script talks to the server
# whose URL is in $VAR (tests/servers/up.sh starts one); without it every
# case is skipped, saying why (WHY, else what up.sh left in VAR_WHY) and how
# to get one, and under CI=true that is a failure.
need_server() {
    eval "_v=\${$1:-} _why=\${3:-\${$1_WHY:-}}"
    [ -n "$_v" ] && return 0
    [ -n "$_why" ] || _why="no server: tests/servers/up.sh starts one when its packages are installed"
    _why=$(printf '%s' "$_why" | tr -d "'")
    _how="make check as root installs and starts it; or set $1"
    if [ "${CI:-}" = true ]; then
        test_case "$2 is configured" "echo '$1 is not set under CI=true: $_why'; false"
    else
        test_skip "$2" "$1 is not set: $_why; $_how"
    fi
    finish
}

# galera_up: a three-node MariaDB Galera cluster (tests/servers/galera.sh,
# as root) in ISOLDE_GALERA_URLS: the one it names, else the suite's
# (started on first use in $ISOLDE_SERVERS_DIR/galera, which up.sh's
# servers_down stops), else one of this script's own, stopped at its exit;
# without one, galera_why says why. need_galera WHAT: the same, then as
# need_server.
galera_up() {
    [ -n "${ISOLDE_GALERA_URLS:-}" ] && return 0
    [ "$(id -u)" = 0 ] || { galera_why="not root: tests/servers/galera.sh needs root (network namespaces)"; return 0; }
    _g=${ISOLDE_SERVERS_DIR:-$tmp}/galera
    [ -f "$_g.env" ] || [ -f "$_g.failed" ] || _galera_start "$_g"
    [ -f "$_g.env" ] && . "$_g.env"
    [ -f "$_g.failed" ] && galera_why=$(cat "$_g.failed")
    [ -n "${ISOLDE_SERVERS_DIR:-}" ] || trap 'sh tests/servers/galera.sh stop "$_g"; rm -rf "$tmp"' EXIT
}

need_galera() {
    galera_up
    need_server ISOLDE_GALERA_URLS "$1" "${galera_why:-}"
}

_galera_start() { # DIR: DIR.env on success, DIR.failed (why) on failure
    if ISOLDE=$isolde sh tests/servers/galera.sh start "$1" >"$1.tmp" 2>"$1.err" </dev/null; then
        mv "$1.tmp" "$1.env"
    else
        echo "tests/servers/galera.sh start failed: $(tail -n 3 "$1.err" | tr '\n' ' ')" >"$1.failed"
        sh tests/servers/galera.sh stop "$1" || true
    fi
    rm -f "$1.tmp" "$1.err"
}

