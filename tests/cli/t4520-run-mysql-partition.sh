#!/bin/sh
# `isolde run mysql` through isolde's fault proxy (tests/servers/mariadb.sh's
# server): a partition cuts the clients off from the node (statements stall
# and time out: class connection, error 2013), the run goes on, every
# start-partition / stop-partition is in the history with whom it hit, and
# the check still runs (SERIALIZABLE checks serializable); latency and drop
# work beside it; the proxied URL's password appears in no output or
# history; and `isolde proxy` by hand: a link, --send cut / status / heal,
# a command with a line break refused, not sent as two (issue 23).
. tests/clilib.sh "$@"
if ! "$isolde" run --help | grep -q '^mysql:'; then
    [ "${CI:-}" = true ] && test_case "built with libmariadb" "false"
    test_skip "MariaDB runs through the proxy" "built without libmariadb"
    finish
fi
need_server ISOLDE_MYSQL_URL "MariaDB runs through the proxy"
pw=$ISOLDE_MYSQL_PASSWORD
url="mysql://isolde:$pw@${ISOLDE_MYSQL_URL#mysql://isolde@}"
server=${ISOLDE_MYSQL_URL#mysql://isolde@}
server=${server%%/*}
export url pw server

test_case "a partition between clients and the node: timeouts, the run goes on, faults recorded, checked" <<'T'
expect_status 0 "$isolde" run mysql --url "$url" --fresh -i serializable -c serializable -n 100000000 --time-limit 8 -p 6 --nemesis partition --fault-every 1 --fault-for 2 --txn-timeout 1000 -o "$tmp/part.jsonl"
starts=$(grep -c '"process":"nemesis","f":"start-partition","value":{"isolated":\["n1"\],"from":\["clients"\],"proxy":{.*"links":1}' "$tmp/part.jsonl")
stops=$(grep -c '"process":"nemesis","f":"stop-partition","value":{"healed":true,"proxy":{"healed":1}}' "$tmp/part.jsonl")
echo "partitions $starts, heals $stops"
test "$starts" -ge 1
test "$stops" -eq "$starts"
grep -q '"error":\["connection","2013"' "$tmp/part.jsonl"
expect_out '^valid?: true'
expect_out "^faults: $starts (partition)"
expect_out 'connection'
not grep -l -F "$pw" "$tmp/out" "$tmp/err" "$tmp/part.jsonl"
T

test_case "latency and drop through the proxy: recorded, the run checks" <<'T'
expect_status 0 "$isolde" run mysql --url "$url" --fresh -i serializable -c serializable -n 100000000 --time-limit 5 -p 4 --nemesis latency,drop --latency 30 --fault-every 0.5 --fault-for 0.5 --seed 3 -o "$tmp/ld.jsonl"
grep -q '"f":"start-latency","value":{"delay_ms":30,"proxy":{"delay_ms":30' "$tmp/ld.jsonl"
grep -q '"f":"start-drop","value":{"node":"n1","proxy":{"dropped":' "$tmp/ld.jsonl"
expect_out '^valid?: true'
T

test_case "--proxy alone: clients go through it, nothing is cut" <<'T'
expect_status 0 "$isolde" run mysql --url "$url" --fresh --proxy -i serializable -c serializable -n 300 -p 4 -o "$tmp/plain.jsonl"
grep -q '"node":"127.0.0.1:' "$tmp/plain.jsonl"
not grep -q '"node":"127.0.0.1:.*"node"' "$tmp/plain.jsonl"
T

test_case "isolde proxy by hand: a link, cut, status, heal, quit" <<'T'
mkfifo "$tmp/in"
"$isolde" proxy --link "127.0.0.1:0=$server" --control 127.0.0.1:0 <"$tmp/in" >"$tmp/proxy.out" 2>&1 &
exec 3>"$tmp/in"
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q '^ready' "$tmp/proxy.out" || sleep 0.2; done
ctl=$(sed -n 's/^control //p' "$tmp/proxy.out")
port=$(sed -n 's/^link .* port //p' "$tmp/proxy.out")
test -n "$ctl"
expect_status 0 "$isolde" run mysql --url "mysql://isolde:$pw@127.0.0.1:$port/isolde" --fresh -n 100 -p 2 -o "$tmp/hand.jsonl"
expect_status 0 "$isolde" proxy --send "$ctl" cut n1
expect_out '^ok {"isolated":\["n1"\],"from":\["clients"\],"links":1}'
expect_status 0 "$isolde" proxy --send "$ctl" status
expect_out '"cut":true'
expect_status 3 "$isolde" run mysql --url "mysql://isolde:$pw@127.0.0.1:$port/isolde" -n 10 -p 1 --reconnect 500 -o "$tmp/cut.jsonl"
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

test_case "bad proxy options are usage errors" <<'T'
expect_status 3 "$isolde" proxy --link 127.0.0.1:0
expect_err 'not a link'
expect_status 3 "$isolde" proxy
expect_err 'no --link'
expect_status 3 "$isolde" run mysql --url "$url" --nemesis partition --url "$url" --url "$url" -n 10 --proxy-control nowhere -o "$tmp/bad.jsonl"
expect_err 'proxy-control' 
T

finish
