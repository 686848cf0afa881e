#!/bin/sh
# `isolde run` against each SQL server the suite has (tests/servers/ starts
# them; tests/sqllib.sh loops over tests/data/sql/backends.tsv) while a
# nemesis breaks it: each row of tests/data/sql/faults.tsv is a fault a
# backend is run under, one function below a fault (the table says what
# each asserts: README.md's table "What the fault tests find"). A fault is
# an op of the process "nemesis" in the history, and the check still runs.
. tests/clilib.sh "$@"
. tests/sqllib.sh

fault_kill() { # SERIALIZABLE killed and restarted 9+ times in one run
    test_case "$1: $who SERIALIZABLE killed and restarted 9+ times in one run checks strict-serializable; faults recorded" <<'T'
expect_status 0 "$isolde" run $be --url "$url" --fresh -i serializable -c strict-serializable -n 100000000 --time-limit 12 -p 10 --nemesis kill --pid-file "$pidfile" --restart "$restart" --fault-every 0.4 --fault-for 0.2 --txn-timeout 3000 -o "$tmp/kill.jsonl"
kills=$(grep -c '"process":"nemesis","f":"kill","value":\[' "$tmp/kill.jsonl")
starts=$(grep -c '"process":"nemesis","f":"start","value":{"restart":.*"exit":0}' "$tmp/kill.jsonl")
echo "kills $kills, restarts $starts"
test "$kills" -ge 9
test "$starts" -eq "$kills"
expect_out "^faults: $kills (kill)"
T
}

fault_lossy_kill() { # INIT-SQL: the same kills without durability
    test_case "$1: $who: the same kills with '$2' lose acknowledged commits: caught" <<T
expect_status 1 "\$isolde" run \$be --url "\$url" --fresh -i serializable -c strict-serializable -n 100000000 --time-limit 12 -p 10 --nemesis kill --pid-file "\$pidfile" --restart "\$restart" --fault-every 0.4 --fault-for 0.2 --txn-timeout 3000 --init-sql '$2' -o "\$tmp/lossy.jsonl"
expect_out '^valid?: false'
T
}

fault_pause() {
    test_case "$1: $who paused: statements time out (class timeout), the run goes on and checks" <<'T'
expect_status 0 "$isolde" run $be --url "$url" --fresh -i serializable -c strict-serializable -n 100000000 --time-limit 6 -p 6 --nemesis pause --pid-file "$pidfile" --fault-every 1 --fault-for 0.8 --txn-timeout 300 -o "$tmp/pause.jsonl"
grep -q '"error":\["timeout",""' "$tmp/pause.jsonl"
grep -q '"process":"nemesis","f":"pause","value":\[' "$tmp/pause.jsonl"
grep -q '"process":"nemesis","f":"resume","value":\[' "$tmp/pause.jsonl"
expect_out 'timeout'
T
}

fault_command() {
    test_case "$1: $who: the command nemesis runs --fault and --heal, and records them" <<'T'
expect_status 0 "$isolde" run $be --url "$url" --fresh -n 100000000 --time-limit 2 -p 4 --nemesis command --fault "echo f >>$tmp/faults" --heal "echo h >>$tmp/faults" --fault-every 0.3 --fault-for 0.1 -o "$tmp/cmd.jsonl"
grep -q '"f":"start-fault","value":{"command":"echo f' "$tmp/cmd.jsonl"
test "$(grep -c f "$tmp/faults")" -eq "$(grep -c h "$tmp/faults")"
T
}

fault_usage() {
    test_case "$1: $who: an unknown nemesis, or kill without --restart, is a usage error" <<'T'
expect_status 3 "$isolde" run $be --url "$url" --nemesis partitoin -n 10 -o "$tmp/bad.jsonl"
expect_err "unknown nemesis 'partitoin'"
expect_status 3 "$isolde" run $be --url "$url" --nemesis kill --pid-file "$pidfile" -n 10 -o "$tmp/bad.jsonl"
expect_err 'needs --restart'
T
}

fault_partition() { # ERROR: the client's code for a connection lost
    test_case "$1: $who cut from its clients: timeouts (error $2), the run goes on, faults recorded, checked" <<T
expect_status 0 "\$isolde" run \$be --url "\$url" --fresh -i serializable -c serializable -n 100000000 --time-limit 8 -p 6 --nemesis partition --fault-every 1 --fault-for 2 --txn-timeout 1000 -o "\$tmp/part.jsonl"
starts=\$(grep -c '"process":"nemesis","f":"start-partition","value":{"isolated":\\["n1"\\],"from":\\["clients"\\],"proxy":{.*"links":1}' "\$tmp/part.jsonl")
stops=\$(grep -c '"process":"nemesis","f":"stop-partition","value":{"healed":true,"proxy":{"healed":1}}' "\$tmp/part.jsonl")
echo "partitions \$starts, heals \$stops"
test "\$starts" -ge 1
test "\$stops" -eq "\$starts"
grep -q '"error":\\["connection","$2"' "\$tmp/part.jsonl"
expect_out '^valid?: true'
expect_out "^faults: \$starts (partition)"
expect_out 'connection'
not grep -l -F "\$pw" "\$tmp/out" "\$tmp/err" "\$tmp/part.jsonl"
T
}

fault_latency_drop() {
    test_case "$1: $who: latency and drop through the proxy: recorded, the run checks" <<'T'
expect_status 0 "$isolde" run $be --url "$url" --fresh -i serializable -c serializable -n 100000000 --time-limit 5 -p 4 --nemesis latency,drop --latency 30 --fault-every 0.5 --fault-for 0.5 --seed 3 -o "$tmp/ld.jsonl"
grep -q '"f":"start-latency","value":{"delay_ms":30,"proxy":{"delay_ms":30' "$tmp/ld.jsonl"
grep -q '"f":"start-drop","value":{"node":"n1","proxy":{"dropped":' "$tmp/ld.jsonl"
expect_out '^valid?: true'
T
}

fault_proxy() {
    test_case "$1: $who: --proxy alone: clients go through it, nothing is cut" <<'T'
expect_status 0 "$isolde" run $be --url "$url" --fresh --proxy -i serializable -c serializable -n 300 -p 4 -o "$tmp/plain.jsonl"
grep -q '"node":"127.0.0.1:' "$tmp/plain.jsonl"
not grep -q '"node":"127.0.0.1:.*"node"' "$tmp/plain.jsonl"
T
}

fault_proxy_by_hand() {
    test_case "$1: $who: isolde proxy by hand: a link, cut, status, heal, quit" <<'T'
server=${hostpart%%/*}
scheme=${url%%://*}
mkfifo "$tmp/in.$be"
"$isolde" proxy --link "127.0.0.1:0=$server" --control 127.0.0.1:0 <"$tmp/in.$be" >"$tmp/proxy.out" 2>&1 &
exec 3>"$tmp/in.$be"
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q '^ready' "$tmp/proxy.out" || sleep 0.2; done
ctl=$(sed -n 's/^control //p' "$tmp/proxy.out")
port=$(sed -n 's/^link .* port //p' "$tmp/proxy.out")
test -n "$ctl"
expect_status 0 "$isolde" run $be --url "$scheme://isolde:$pw@127.0.0.1:$port/isolde" --fresh -n 100 -p 2 -o "$tmp/hand.jsonl"
expect_status 0 "$isolde" proxy --send "$ctl" cut n1
expect_out '^ok {"isolated":\["n1"\],"from":\["clients"\],"links":1}'
expect_status 0 "$isolde" proxy --send "$ctl" status
expect_out '"cut":true'
expect_status 3 "$isolde" run $be --url "$scheme://isolde:$pw@127.0.0.1:$port/isolde" -n 10 -p 1 --reconnect 500 -o "$tmp/cut.jsonl"
expect_status 0 "$isolde" proxy --send "$ctl" heal
expect_out '^ok {"healed":1}'
expect_status 1 "$isolde" proxy --send "$ctl" cut n7
expect_out "no node 'n7'"
expect_status 3 "$isolde" proxy --send "$ctl" "$(printf 'heal\ncut n1')"
expect_err 'no line break'
expect_status 0 "$isolde" proxy --send "$ctl" status
expect_out '"cut":false'
echo status >&3
echo quit >&3
exec 3>&-
wait
grep -q '^ok {"links":\[{"from":"clients","to":"n1"' "$tmp/proxy.out"
grep -q '^ok bye' "$tmp/proxy.out"
T
}

fault_proxy_usage() {
    test_case "$1: $who: bad proxy options are usage errors" <<'T'
expect_status 3 "$isolde" proxy --link 127.0.0.1:0
expect_err 'not a link'
expect_status 3 "$isolde" proxy
expect_err 'no --link'
expect_status 3 "$isolde" run $be --url "$url" --nemesis partition --url "$url" --url "$url" -n 10 --proxy-control nowhere -o "$tmp/bad.jsonl"
expect_err 'proxy-control'
T
}

for b in $(sql_backends tests/data/sql/faults.tsv); do
    sql_use "$b" "fault runs" || continue
    sql_rows tests/data/sql/faults.tsv >"$tmp/.faults"
    while IFS="$tab" read -r line fault detail; do
        "fault_$(echo "$fault" | tr - _)" "faults.tsv:$line" "$detail"
    done <"$tmp/.faults"
done

finish
