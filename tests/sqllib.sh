# sqllib.sh -- sourced after tests/clilib.sh by the scripts that run one
# feature of `isolde run` (runs, faults, scenarios, Jepsen's workloads)
# against every SQL backend, one script a feature instead of a copy a
# backend: the backends are the rows of tests/data/sql/backends.tsv (their
# servers started by tests/servers/up.sh), and what each level of each
# does is the feature's own table in tests/data/sql/.
#   sql_backends TABLE   the backends TABLE has rows for (its first column),
#                        in backends.tsv's order
#   sql_use NAME WHAT    0 when backend NAME can run here, its row's values
#       set: be (its name), who (the server's name), url (with the password
#       in it; a database file in $tmp for a backend without a server), bare
#       (the URL without the password), pw, pwenv (the client's password
#       variable), ca (the CA's file), tls (the URL parameters that verify
#       the server, the CA's path after them), badpw, again (see
#       backends.tsv), hostpart (HOST:PORT/DB), pidfile, restart (the
#       server's pid file, the command that restarts it); else 1, after a skipped
#       case saying why (a failing one under CI=true, as need_server does)
#   sql_rows TABLE       TABLE's rows for $be, each with its line number in
#                        place of the backend (failures name TABLE:LINE)
#   sql_fresh            the --url and --fresh arguments of a run on fresh
#                        tables (a new database file for sqlite)
tab=$(printf '\t')
sql_table=tests/data/sql/backends.tsv

sql_backends() { # TABLE
    _in=$(grep -v '^#' "$1" | cut -f1 | sort -u)
    grep -v '^#' "$sql_table" | cut -f1 | while read -r _b; do
        printf '%s\n' "$_in" | grep -qx -- "$_b" && echo "$_b"
    done
}

sql_rows() { # TABLE
    awk -F'\t' -v b="$be" 'BEGIN { OFS = FS } !/^#/ && $1 == b { $1 = NR; print }' "$1"
}

# Says why backend $be cannot run WHAT here; returns 1.
_sql_cannot() { # WHAT WHY
    if [ "${CI:-}" = true ]; then
        test_case "$who $1 can run under CI=true" "echo '$(printf '%s' "$2" | tr -d "'")'; false"
    else
        test_skip "$who $1" "$2"
    fi
    return 1
}

sql_use() { # NAME WHAT
    _row=$(grep -v '^#' "$sql_table" | awk -F'\t' -v b="$1" '$1 == b')
    [ -n "$_row" ] || { test_case "backend $1 is in $sql_table" false; return 1; }
    IFS="$tab" read -r be who _lib _urlvar _pwvar pwenv _cavar tls badpw again _pid _restart <<EOF
$_row
EOF
    "$isolde" run --help | grep -q "^$be:" || { _sql_cannot "$2" "built without $_lib"; return 1; }
    if [ "$_urlvar" = - ]; then
        bare=$tmp/$be.db url=$bare pw='' ca='' hostpart='' pidfile='' restart=''
        return 0
    fi
    eval "bare=\${$_urlvar:-} pw=\${$_pwvar:-} ca=\${$_cavar:-} _why=\${${_urlvar}_WHY:-}"
    [ -n "$bare" ] || {
        _sql_cannot "$2" "$_urlvar is not set: ${_why:-no server: tests/servers/up.sh starts one when its packages are installed}; make check as root installs and starts it; or set $_urlvar"
        return 1
    }
    hostpart=${bare#*://isolde@}
    url="${bare%%://*}://isolde:$pw@$hostpart"
    eval "pidfile=$_pid restart=\"$_restart\""
    export be who url bare pw pwenv ca tls badpw again hostpart pidfile restart
}

sql_fresh() {
    if [ "$be" = sqlite ]; then echo "--url $(mktemp -u "$tmp/$be-XXXXXX").db"; else echo "--url $url --fresh"; fi
}
