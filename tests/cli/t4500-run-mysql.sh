#!/bin/sh
# `isolde run mysql` against a real MariaDB 10.11 (tests/servers/mariadb.sh;
# ISOLDE_MYSQL_URL and ISOLDE_MYSQL_PASSWORD say where): MariaDB's
# documented answers in both directions -- SERIALIZABLE checks
# serializable; REPEATABLE READ with innodb_snapshot_isolation=OFF (the
# default) admits lost-update, and with it ON the lost updates turn into
# error 1020 and REPEATABLE READ checks snapshot-isolation; TLS with the
# server's CA; a password in the URL, in MYSQL_PWD or in a password file
# appears in no output and no history.
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^mysql:'; then
    [ "${CI:-}" = true ] && test_case "built with libmariadb" "false"
    test_skip "MariaDB runs" "built without libmariadb"
    finish
fi
need_server ISOLDE_MYSQL_URL "MariaDB runs"
pw=$ISOLDE_MYSQL_PASSWORD
hostpart=${ISOLDE_MYSQL_URL#mysql://isolde@}
url="mysql://isolde:$pw@$hostpart"
export url pw

no_secret() { # FILES...
    ! grep -l -F "$pw" "$tmp/out" "$tmp/err" "$@"
}

test_case "SERIALIZABLE list-append checks serializable" <<'T'
expect_status 0 "$isolde" run mysql --url "$url" --fresh -i serializable -c serializable -n 2000 -p 10 -o "$tmp/ser.jsonl"
no_secret "$tmp/ser.jsonl"
T

test_case "SERIALIZABLE rw-register checks serializable" <<'T'
expect_status 0 "$isolde" run mysql --url "$url" --fresh -m rw-register -i serializable -c serializable -n 2000 -p 10 -o "$tmp/ser-rw.jsonl"
T

test_case "REPEATABLE READ (innodb_snapshot_isolation=OFF) admits lost-update: it is not snapshot isolation" <<'T'
expect_status 1 "$isolde" run mysql --url "$url" --fresh -i repeatable-read -c snapshot-isolation -n 3000 -p 10 -o "$tmp/rr.jsonl"
tr '\n' ' ' <"$tmp/out" | grep -q 'anomaly-types:.*lost-update'
T

test_case "REPEATABLE READ with innodb_snapshot_isolation=ON: lost updates are error 1020, and it checks snapshot-isolation" <<'T'
expect_status 0 "$isolde" run mysql --url "$url" --fresh -i repeatable-read -c snapshot-isolation --init-sql 'SET SESSION innodb_snapshot_isolation=ON' -n 3000 -p 10 -o "$tmp/si.jsonl"
grep -q '"error":\["serialization-failure","1020",' "$tmp/si.jsonl"
expect_status 1 "$isolde" check -c serializable "$tmp/si.jsonl"
expect_out 'anomaly-types:.*G2-item'
T

test_case "TLS verified with the server's CA" <<'T'
expect_status 0 "$isolde" run mysql --url "$url?ssl=1&ssl-ca=$ISOLDE_MYSQL_CA" --fresh -n 200 -o "$tmp/tls.jsonl"
no_secret "$tmp/tls.jsonl"
T

test_case "TLS against a CA the server's certificate is not from fails, password hidden" <<'T'
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" -keyout "$tmp/k.pem" -out "$tmp/other.pem" 2>/dev/null
expect_status 3 "$isolde" run mysql --url "$url?ssl=1&ssl-ca=$tmp/other.pem" --reconnect 0 -n 10 -o "$tmp/badtls.jsonl"
expect_err 'cannot connect to mysql://isolde:\*\*\*@'
no_secret
T

test_case "a URL parameter it does not take, or a value it cannot read, is a usage error, never a plain-text connection" <<'T'
expect_status 3 "$isolde" run mysql --url "$url?sslmode=verify-full" --fresh -n 10 -o "$tmp/p1.jsonl"
expect_err "unknown URL parameter 'sslmode' (the URL takes ssl, "
expect_status 3 "$isolde" run mysql --url "$url?ssl=yes" --fresh -n 10 -o "$tmp/p2.jsonl"
expect_err "parameter ssl takes 1, true or on, or 0, false or off, not 'yes'"
expect_status 3 "$isolde" run mysql --url "$url?ssl_ca=$ISOLDE_MYSQL_CA" --fresh -n 10 -o "$tmp/p3.jsonl"
expect_err "unknown URL parameter 'ssl_ca' (did you mean ssl-ca?)"
expect_status 3 "$isolde" run mysql --url "$url?ssl=1&ssl=0" --fresh -n 10 -o "$tmp/p4.jsonl"
expect_err "parameter ssl given twice"
no_secret
T

test_case "a wrong password fails at once (1045), said once, not tried again until --reconnect" <<'T'
expect_status 3 timeout -s KILL 60 "$isolde" run mysql --url "mysql://isolde:not-$pw@$hostpart" --reconnect 3600000 -n 10 -o "$tmp/wrong2.jsonl"
test "$(grep -c 'Access denied' "$tmp/err")" = 1
expect_err 'not tried again'
not grep -q -e "not-$pw" "$tmp/err" "$tmp/out"
T

test_case "MYSQL_PWD and a password file stand in for a password not in the URL" <<'T'
MYSQL_PWD=$pw expect_status 0 "$isolde" run mysql --url "$ISOLDE_MYSQL_URL" --fresh -n 200 -o "$tmp/env.jsonl"
echo "$pw" >"$tmp/pwfile"
expect_status 0 "$isolde" run mysql --url "$ISOLDE_MYSQL_URL?password-file=$tmp/pwfile" --fresh -n 200 -o "$tmp/file.jsonl"
no_secret "$tmp/env.jsonl" "$tmp/file.jsonl"
T

test_case "a wrong password is an error that does not print it" <<'T'
expect_status 3 "$isolde" run mysql --url "mysql://isolde:not-$pw@$hostpart" --reconnect 0 -n 10 -o "$tmp/wrong.jsonl"
expect_err 'Access denied'
not grep -q -e "not-$pw" "$tmp/err" "$tmp/out"
T

test_case "rows of an earlier run are refused without --fresh" <<'T'
expect_status 3 "$isolde" run mysql --url "$url" -n 10 -o "$tmp/again.jsonl"
expect_err 'holds rows of an earlier run'
T

finish
