#!/bin/sh
# `isolde run` against each SQL server the suite has (tests/servers/
# starts them; tests/data/sql/backends.tsv lists them, tests/sqllib.sh
# loops over them): what each level's documentation says, in both
# directions, one row of tests/data/sql/levels.tsv a run (README.md's table
# "What the servers' documentation promises, and what isolde finds");
# TLS verified with the server's CA, and refused with another; a password
# in the URL or in the client's variable appears in no output and no
# history, a wrong one is an error that does not print it, said once and
# not tried again until --reconnect; tables of an earlier run are refused
# without --fresh. Then what one client library does alone: PostgreSQL's
# sslmode, libpq's messages, an unreachable server, several endpoints,
# --table-prefix; MariaDB's URL parameters and password file.
. tests/clilib.sh "$@"
. tests/sqllib.sh

# The password shows nowhere: not in what the command printed, nor in FILES.
no_secret() { # FILES...
    ! grep -l -F "$pw" "$tmp/out" "$tmp/err" "$@"
}

# Each level's row of levels.tsv: the run, then what it and a check of its
# history say (README.md's table row).
level_cases() {
    sql_rows tests/data/sql/levels.tsv >"$tmp/levels"
    while IFS="$tab" read -r line level n opts st says hist recheck restatus found never; do
        [ "$opts" = - ] && opts=
        h=$tmp/$be-$line.jsonl
        name="levels.tsv:$line: $who $level${opts:+ ($opts)}: the run exits $st"
        [ "$recheck" = - ] || name="$name; checked as $recheck, $restatus"
        [ "$found" = - ] || name="$name, finding $found"
        [ "$never" = - ] || name="$name, never $never"
        test_case "$name" <<T
expect_status $st "\$isolde" run $be --url "\$url" --fresh -i $level $opts -n $n -p 10 -o "$h"
no_secret "$h"
$( [ "$says" = - ] || echo "expect_out '$says'" )
$( [ "$hist" = - ] || echo "grep -q -F '$hist' \"$h\"" )
$( [ "$recheck" = - ] || echo "expect_status $restatus \"\$isolde\" check -c $recheck \"$h\"" )
for t in ${found#-}; do tr '\n' ' ' <"\$tmp/out" | grep -q "anomaly-types:.*\$t"; done
for t in ${never#-}; do not grep -q -e "\$t" "\$tmp/out"; done
T
    done <"$tmp/levels"
}

# What every server does alike, its words from its row of backends.tsv.
common_cases() {
    test_case "$who: TLS verified with the server's CA" <<'T'
expect_status 0 "$isolde" run $be --url "$url?$tls$ca" --fresh -n 200 -o "$tmp/tls.jsonl"
no_secret "$tmp/tls.jsonl"
T
    test_case "$who: TLS against a CA the server's certificate is not from fails, password hidden" <<'T'
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" -keyout "$tmp/k.pem" -out "$tmp/other.pem" 2>/dev/null
expect_status 3 "$isolde" run $be --url "$url?$tls$tmp/other.pem" --reconnect 0 -n 10 -o "$tmp/badtls.jsonl"
expect_err "cannot connect to ${url%%://*}://isolde:\*\*\*@"
no_secret
T
    test_case "$who: $pwenv stands in for a password not in the URL, and shows nowhere" <<'T'
expect_status 0 env "$pwenv=$pw" "$isolde" run $be --url "$bare" --fresh -n 200 -o "$tmp/env.jsonl"
no_secret "$tmp/env.jsonl"
T
    test_case "$who: a wrong password is an error that does not print it" <<'T'
expect_status 3 "$isolde" run $be --url "${url%%://*}://isolde:not-$pw@$hostpart" --reconnect 0 -n 10 -o "$tmp/wrong.jsonl"
expect_err "$badpw"
expect_err 'isolde:\*\*\*@'
not grep -q -e "not-$pw" "$tmp/err" "$tmp/out"
T
    test_case "$who: a wrong password fails at once, said once, not tried again until --reconnect" <<'T'
expect_status 3 timeout -s KILL 60 "$isolde" run $be --url "${url%%://*}://isolde:not-$pw@$hostpart" --reconnect 3600000 -n 10 -o "$tmp/wrong2.jsonl"
test "$(grep -c "$badpw" "$tmp/err")" = 1
expect_err "$again"
not grep -q -e "not-$pw" "$tmp/err" "$tmp/out"
mkdir -p "$tmp/scen"
expect_status 3 timeout -s KILL 60 "$isolde" scenario write-skew $be --url "${url%%://*}://isolde:not-$pw@$hostpart" --reconnect 3600000 -o "$tmp/scen"
test "$(grep -c "$badpw" "$tmp/err")" = 1
T
    test_case "$who: rows of an earlier run are refused without --fresh (they would read as values nobody wrote)" <<'T'
expect_status 3 "$isolde" run $be --url "$url" -n 10 -o "$tmp/again.jsonl"
expect_err 'holds rows of an earlier run'
T
}

postgres_cases() {
    test_case "PostgreSQL: sslmode=disable works too" <<'T'
expect_status 0 "$isolde" run postgres --url "$url?sslmode=disable" --fresh -n 200 -o "$tmp/plain.jsonl"
T
    test_case "PostgreSQL: a password shows in none of libpq's own messages, whatever its form or length" <<'T'
long=SECRET$(printf 'L%.0s' $(seq 1 300))
for u in "postgresql://isolde:SECRETA@[::1/db" "postgresql://isolde:SECRET%42@[::1/db" \
         "postgresql://isolde:$long@[::1/db" "postgresql://isolde:$long@127.0.0.1:1/db" \
         "postgresql://isolde:SEC/RET@127.0.0.1:1/db" "host=127.0.0.1 port=1 password='SECRET\\'S'"; do
    expect_status 3 "$isolde" run postgres --url "$u" --reconnect 0 -n 1 -o "$tmp/leak.jsonl"
    expect_err 'postgres: '
    not grep -e SEC -e LLLLLLLL -e RET "$tmp/err"
done
T
    test_case "PostgreSQL: an unreachable server: connecting is retried until --reconnect, then an error" <<'T'
expect_status 3 "$isolde" run postgres --url "postgresql://isolde:$pw@127.0.0.1:1/isolde" --reconnect 300 -n 10 -o "$tmp/down.jsonl"
expect_err '^isolde run: connecting to 127.0.0.1:1 (retrying until --reconnect: 0.3 s)$'
expect_err 'cannot connect.*: Connection refused; Is the server running on that host'
not grep -F '\x0' "$tmp/err"
no_secret
T
    if command -v script >/dev/null; then
        test_case "PostgreSQL: on a terminal, the progress line says what the run waits for" <<'T'
script -qc "$isolde run postgres --url postgresql://isolde@127.0.0.1:1/isolde --reconnect 300 -n 10 -o $tmp/tty.jsonl" /dev/null >"$tmp/tty" || true
grep -q "$(printf '\r\033')\[K  connecting to 127.0.0.1:1 (retrying until --reconnect: 0.3 s)" "$tmp/tty"
T
    fi
    test_case "PostgreSQL: SIGTERM ends a run still trying to connect (not only at --reconnect's end)" <<'T'
expect_status 3 timeout --preserve-status -k 30 1 "$isolde" run postgres --url "postgresql://isolde:$pw@127.0.0.1:1/isolde" --reconnect 3600000 -n 10 -o "$tmp/term.jsonl"
expect_err 'cannot connect'
no_secret
T
    test_case "PostgreSQL: SIGTERM twice (timeout(1) signals the command and its group) still ends the run cleanly" <<'T'
"$isolde" run postgres --url "postgresql://isolde:$pw@127.0.0.1:1/isolde" --reconnect 3600000 -n 10 -o "$tmp/term2.jsonl" 2>"$tmp/term2.err" &
pid=$!
n=0
until grep -q connecting "$tmp/term2.err"; do sleep 0.1; n=$((n + 1)); test $n -lt 300; done
kill -TERM $pid
kill -TERM $pid 2>/dev/null || true
rc=0
wait $pid || rc=$?
test "$rc" = 3
T
    test_case "PostgreSQL: two endpoints: clients spread over them, every op records its node" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --url "$url?sslmode=require" --fresh -n 400 -p 4 -o "$tmp/two.jsonl"
port=${hostpart%%/*}
test "$(grep -c "\"node\":\"$port\"" "$tmp/two.jsonl")" = "$(wc -l <"$tmp/two.jsonl")"
T
    test_case "PostgreSQL: --table-prefix picks other tables; a prefix that is not a name is refused" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --table-prefix other_ --fresh -n 100 -o "$tmp/prefix.jsonl"
expect_status 3 "$isolde" run postgres --url "$url" --table-prefix 'x;drop' -n 10 -o "$tmp/prefix2.jsonl"
expect_err 'table-prefix'
T
}

mysql_cases() {
    test_case "MariaDB: a URL parameter it does not take, or a value it cannot read, is a usage error, never a plain-text connection" <<'T'
expect_status 3 "$isolde" run mysql --url "$url?sslmode=verify-full" --fresh -n 10 -o "$tmp/p1.jsonl"
expect_err "unknown URL parameter 'sslmode' (the URL takes ssl, "
expect_status 3 "$isolde" run mysql --url "$url?ssl=yes" --fresh -n 10 -o "$tmp/p2.jsonl"
expect_err "parameter ssl takes 1, true or on, or 0, false or off, not 'yes'"
expect_status 3 "$isolde" run mysql --url "$url?ssl_ca=$ca" --fresh -n 10 -o "$tmp/p3.jsonl"
expect_err "unknown URL parameter 'ssl_ca' (did you mean ssl-ca?)"
expect_status 3 "$isolde" run mysql --url "$url?ssl=1&ssl=0" --fresh -n 10 -o "$tmp/p4.jsonl"
expect_err "parameter ssl given twice"
no_secret
T
    test_case "MariaDB: a password file stands in for a password not in the URL" <<'T'
echo "$pw" >"$tmp/pwfile"
expect_status 0 "$isolde" run mysql --url "$bare?password-file=$tmp/pwfile" --fresh -n 200 -o "$tmp/file.jsonl"
no_secret "$tmp/file.jsonl"
T
}

for b in $(sql_backends tests/data/sql/levels.tsv); do
    sql_use "$b" runs || continue
    level_cases
    common_cases
    case $be in
        postgres) postgres_cases ;;
        mysql) mysql_cases ;;
    esac
done

finish
