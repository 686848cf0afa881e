#!/bin/sh
# `isolde run postgres` while a nemesis breaks the server
# (tests/servers/postgres.sh's server): SERIALIZABLE killed and restarted at
# least 9 times in one run still checks strict-serializable, every fault and
# heal an op of the process "nemesis" in the history; the same kills with
# synchronous_commit off lose acknowledged commits, and the checker says so
# (the other direction); a paused server makes clients time out
# (--txn-timeout), recorded with class "timeout"; the command nemesis runs
# its fault and heal; bad nemesis options are usage errors before the
# database is touched.
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^postgres:'; then
    [ "${CI:-}" = true ] && test_case "built with libpq" "false"
    test_skip "PostgreSQL fault runs" "built without libpq"
    finish
fi
need_server ISOLDE_PG_URL "PostgreSQL fault runs"
url="postgresql://isolde:$ISOLDE_PG_PASSWORD@${ISOLDE_PG_URL#postgresql://isolde@}"
restart="sh tests/servers/postgres.sh restart $ISOLDE_PG_HOME"
pidfile=$ISOLDE_PG_DIR/postmaster.pid
export url restart pidfile

test_case "SERIALIZABLE killed and restarted 9+ times in one run checks strict-serializable; faults recorded" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -i serializable -c strict-serializable -n 100000000 --time-limit 12 -p 10 --nemesis kill --pid-file "$pidfile" --restart "$restart" --fault-every 0.4 --fault-for 0.2 --txn-timeout 3000 -o "$tmp/kill.jsonl"
kills=$(grep -c '"process":"nemesis","f":"kill","value":\[' "$tmp/kill.jsonl")
starts=$(grep -c '"process":"nemesis","f":"start","value":{"restart":.*"exit":0}' "$tmp/kill.jsonl")
echo "kills $kills, restarts $starts"
test "$kills" -ge 9
test "$starts" -eq "$kills"
expect_out "^faults: $kills (kill)"
T

test_case "the same kills with synchronous_commit off lose acknowledged commits: caught" <<'T'
expect_status 1 "$isolde" run postgres --url "$url" --fresh -i serializable -c strict-serializable -n 100000000 --time-limit 12 -p 10 --nemesis kill --pid-file "$pidfile" --restart "$restart" --fault-every 0.4 --fault-for 0.2 --txn-timeout 3000 --init-sql 'SET synchronous_commit = off' -o "$tmp/lossy.jsonl"
expect_out '^valid?: false'
T

test_case "a paused server: statements time out (class timeout), the run goes on and checks" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -i serializable -c strict-serializable -n 100000000 --time-limit 6 -p 6 --nemesis pause --pid-file "$pidfile" --fault-every 1 --fault-for 0.8 --txn-timeout 300 -o "$tmp/pause.jsonl"
grep -q '"error":\["timeout",""' "$tmp/pause.jsonl"
grep -q '"process":"nemesis","f":"pause","value":\[' "$tmp/pause.jsonl"
grep -q '"process":"nemesis","f":"resume","value":\[' "$tmp/pause.jsonl"
expect_out 'timeout'
T

test_case "the command nemesis runs --fault and --heal, and records them" <<'T'
expect_status 0 "$isolde" run postgres --url "$url" --fresh -n 100000000 --time-limit 2 -p 4 --nemesis command --fault "echo f >>$tmp/faults" --heal "echo h >>$tmp/faults" --fault-every 0.3 --fault-for 0.1 -o "$tmp/cmd.jsonl"
grep -q '"f":"start-fault","value":{"command":"echo f' "$tmp/cmd.jsonl"
test "$(grep -c f "$tmp/faults")" -eq "$(grep -c h "$tmp/faults")"
T

test_case "an unknown nemesis, or kill without --restart, is a usage error" <<'T'
expect_status 3 "$isolde" run postgres --url "$url" --nemesis partitoin -n 10 -o "$tmp/bad.jsonl"
expect_err "unknown nemesis 'partitoin'"
expect_status 3 "$isolde" run postgres --url "$url" --nemesis kill --pid-file "$pidfile" -n 10 -o "$tmp/bad.jsonl"
expect_err 'needs --restart'
T

finish
