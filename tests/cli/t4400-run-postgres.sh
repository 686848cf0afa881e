#!/bin/sh
# `isolde run postgres` against a real PostgreSQL (tests/servers/postgres.sh;
# ISOLDE_PG_URL and ISOLDE_PG_PASSWORD say where): PostgreSQL's documented
# answers in both directions -- SERIALIZABLE checks strict-serializable,
# REPEATABLE READ is snapshot isolation (G2-item appears, G-single and
# lost-update never do), READ COMMITTED admits G-single-item and
# lost-update; TLS up to verify-full; failures recorded with their class
# and SQLSTATE; a password in the URL or in PGPASSWORD appears in no output
# and no history; several endpoints record their node; tables of an
# earlier run are refused without --fresh.
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^postgres:'; then
    [ "${CI:-}" = true ] && test_case "built with libpq" "false"
    test_skip "PostgreSQL runs" "built without libpq"
    finish
fi
need_server ISOLDE_PG_URL "PostgreSQL runs"
pw=$ISOLDE_PG_PASSWORD
hostpart=${ISOLDE_PG_URL#postgresql://isolde@}
url="postgresql://isolde:$pw@$hostpart"
export url pw

# The password shows nowhere: not in what the command printed, nor in the history.
no_secret() { # FILES...
    ! grep -l -F "$pw" "$tmp/out" "$tmp/err" "$@"
}

test_case "SERIALIZABLE list-append checks strict-serializable; retried failures carry class and SQLSTATE" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -i serializable -c strict-serializable -n 2000 -p 10 -o "$tmp/ser.jsonl"
expect_out 'not ok: serialization-failure'
grep -q '"error":\["serialization-failure","40001",' "$tmp/ser.jsonl"
no_secret "$tmp/ser.jsonl"
T

test_case "SERIALIZABLE rw-register checks strict-serializable" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -m rw-register -i serializable -c strict-serializable -n 2000 -p 10 -o "$tmp/ser-rw.jsonl"
no_secret "$tmp/ser-rw.jsonl"
T

test_case "REPEATABLE READ is snapshot isolation: valid for it, G2-item against serializable, never G-single or lost-update" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -i repeatable-read -c snapshot-isolation -n 3000 -p 10 -o "$tmp/rr.jsonl"
expect_status 1 "$isolde" check -c serializable "$tmp/rr.jsonl"
expect_out 'anomaly-types:.*G2-item'
not grep -q 'G-single\|lost-update' "$tmp/out"
T

test_case "READ COMMITTED admits G-single-item (read skew) and lost-update" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -i read-committed -n 3000 -p 10 -o "$tmp/rc.jsonl"
expect_status 1 "$isolde" check -c serializable "$tmp/rc.jsonl"
tr '\n' ' ' <"$tmp/out" | grep -q 'anomaly-types:.*G-single-item'
tr '\n' ' ' <"$tmp/out" | grep -q 'anomaly-types:.*lost-update'
T

test_case "TLS with sslmode=verify-full and the server's certificate" <<'T'
expect_status 0 "$isolde" run postgres --url "$url?sslmode=verify-full&sslrootcert=$ISOLDE_PG_CA" --fresh -n 200 -o "$tmp/tls.jsonl"
no_secret "$tmp/tls.jsonl"
T

test_case "verify-full against a certificate the server's is not signed by fails, password hidden" <<'T'
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" -keyout "$tmp/k.pem" -out "$tmp/other.pem" 2>/dev/null
expect_status 3 "$isolde" run postgres --url "$url?sslmode=verify-full&sslrootcert=$tmp/other.pem" --reconnect 0 -n 10 -o "$tmp/badtls.jsonl"
expect_err 'cannot connect to postgresql://isolde:\*\*\*@'
no_secret
T

test_case "sslmode=disable works too" <<'T'
expect_status 0 "$isolde" run postgres --url "$url?sslmode=disable" --fresh -n 200 -o "$tmp/plain.jsonl"
T

test_case "PGPASSWORD stands in for a password not in the URL, and shows nowhere" <<'T'
PGPASSWORD=$pw expect_status 0 "$isolde" run postgres --url "$ISOLDE_PG_URL" --fresh -n 200 -o "$tmp/env.jsonl"
no_secret "$tmp/env.jsonl"
T

test_case "a wrong password is an error that does not print it" <<'T'
expect_status 3 "$isolde" run postgres --url "postgresql://isolde:not-$pw@$hostpart" --reconnect 0 -n 10 -o "$tmp/wrong.jsonl"
expect_err 'password authentication failed'
expect_err 'isolde:\*\*\*@'
not grep -q -e "not-$pw" "$tmp/err" "$tmp/out"
T

test_case "a password shows in none of libpq's own messages, whatever its form or length" <<'T'
long=SECRET$(printf 'L%.0s' $(seq 1 300))
for u in "postgresql://isolde:SECRETA@[::1/db" "postgresql://isolde:SECRET%42@[::1/db" \
         "postgresql://isolde:$long@[::1/db" "postgresql://isolde:$long@127.0.0.1:1/db" \
         "postgresql://isolde:SEC/RET@127.0.0.1:1/db" "host=127.0.0.1 port=1 password='SECRET\\'S'"; do
    expect_status 3 "$isolde" run postgres --url "$u" --reconnect 0 -n 1 -o "$tmp/leak.jsonl"
    expect_err 'postgres: '
    not grep -e SEC -e LLLLLLLL -e RET "$tmp/err"
done
T

test_case "a wrong password fails at once, said once, not tried again until --reconnect" <<'T'
expect_status 3 timeout -s KILL 60 "$isolde" run postgres --url "postgresql://isolde:not-$pw@$hostpart" --reconnect 3600000 -n 10 -o "$tmp/wrong2.jsonl"
test "$(grep -c 'password authentication failed' "$tmp/err")" = 1
expect_err 'SQLSTATE 28P01: not tried again'
not grep -q -e "not-$pw" "$tmp/err" "$tmp/out"
mkdir "$tmp/scen"
expect_status 3 timeout -s KILL 60 "$isolde" scenario write-skew postgres --url "postgresql://isolde:not-$pw@$hostpart" --reconnect 3600000 -o "$tmp/scen"
test "$(grep -c 'password authentication failed' "$tmp/err")" = 1
T

test_case "an unreachable server: connecting is retried until --reconnect, then an error" <<'T'
expect_status 3 "$isolde" run postgres --url "postgresql://isolde:$pw@127.0.0.1:1/isolde" --reconnect 300 -n 10 -o "$tmp/down.jsonl"
expect_err '^isolde run: connecting to 127.0.0.1:1 (retrying until --reconnect: 0.3 s)$'
expect_err 'cannot connect.*: Connection refused; Is the server running on that host'
not grep -F '\x0' "$tmp/err"
no_secret
T

if command -v script >/dev/null; then
    test_case "on a terminal, the progress line says what the run waits for" <<'T'
script -qc "$isolde run postgres --url postgresql://isolde@127.0.0.1:1/isolde --reconnect 300 -n 10 -o $tmp/tty.jsonl" /dev/null >"$tmp/tty" || true
grep -q "$(printf '\r\033')\[K  connecting to 127.0.0.1:1 (retrying until --reconnect: 0.3 s)" "$tmp/tty"
T
fi

test_case "SIGTERM ends a run still trying to connect (not only at --reconnect's end)" <<'T'
expect_status 3 timeout --preserve-status -k 30 1 "$isolde" run postgres --url "postgresql://isolde:$pw@127.0.0.1:1/isolde" --reconnect 3600000 -n 10 -o "$tmp/term.jsonl"
expect_err 'cannot connect'
no_secret
T

test_case "two endpoints: clients spread over them, every op records its node" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --url "$url?sslmode=require" --fresh -n 400 -p 4 -o "$tmp/two.jsonl"
port=${hostpart%%/*}
test "$(grep -c "\"node\":\"$port\"" "$tmp/two.jsonl")" = "$(wc -l <"$tmp/two.jsonl")"
T

test_case "rows of an earlier run are refused without --fresh (they would read as values nobody wrote)" <<'T'
expect_status 3 "$isolde" run postgres --url "$url" -n 10 -o "$tmp/again.jsonl"
expect_err 'holds rows of an earlier run'
T

test_case "--table-prefix picks other tables; a prefix that is not a name is refused" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --table-prefix other_ --fresh -n 100 -o "$tmp/prefix.jsonl"
expect_status 3 "$isolde" run postgres --url "$url" --table-prefix 'x;drop' -n 10 -o "$tmp/prefix2.jsonl"
expect_err 'table-prefix'
T

finish
