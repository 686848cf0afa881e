#!/bin/sh
# tests/servers/etcd.sh CMD DIR [MEMBER] -- an etcd 3.4 cluster of three
# members (e1, e2, e3) on loopback for the tests, in DIR (made if missing).
# Each member's peer traffic goes through one proxy (peerproxy.py) that can
# cut a member off from the others while its clients still reach it.
#   start DIR          start the cluster; prints the shell lines that tell
#                      the tests where it is:
#     ISOLDE_ETCD_URLS   the members' client URLs, comma-separated (e1,e2,e3)
#     ISOLDE_ETCD_DIR    DIR: DIR/eN the data dirs, DIR/eN.pid the pids,
#                        DIR/eN.log the logs
#   stop DIR           stop every member and the proxy
#   kill DIR eN        SIGKILL member eN
#   restart DIR eN     start member eN again (after kill), on its data dir
#   leader DIR         print the leader's name (eN)
#   isolate DIR eN     cut eN off from the other members (both ways)
#   heal DIR           end the isolation
#   healthy DIR        wait (up to 30 s) until every member is healthy
# Pause a member with kill -STOP / -CONT "$(cat DIR/eN.pid)". Nothing
# outside DIR is touched.
set -eu
cmd=${1:?usage: etcd.sh start|stop|kill|restart|leader|isolate|heal|healthy DIR [eN]}
D=${2:?usage: etcd.sh CMD DIR [eN]}
command -v etcd >/dev/null 2>&1 || { echo "etcd.sh: etcd is not installed (etcd-server)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

. "$(dirname "$0")/ports.sh"

# Member $1's command line, as start wrote it.
member_start() {
    setsid sh -c "exec $(cat "$D/$1.cmd")" >>"$D/$1.log" 2>&1 </dev/null &
    echo $! >"$D/$1.pid"
}

# The client URLs of every member.
urls() { cat "$D/urls"; }

start() {
    mkdir -p "$D"
    ic=""
    routes=""
    for i in 1 2 3; do
        eval "c$i=$(free_port) p$i=$(free_port) l$i=$(free_port)"
        eval "ic=\"\$ic\${ic:+,}e$i=http://127.0.0.1:\$p$i\" routes=\"\$routes \$p$i=\$l$i\""
    done
    setsid python3 "$here/peerproxy.py" "$D" $routes >"$D/proxy.log" 2>&1 </dev/null &
    echo $! >"$D/proxy.pid"
    u=""
    for i in 1 2 3; do
        eval "c=\$c$i p=\$p$i l=\$l$i"
        echo "etcd --name e$i --data-dir $D/e$i --listen-client-urls http://127.0.0.1:$c" \
            "--advertise-client-urls http://127.0.0.1:$c --listen-peer-urls http://127.0.0.1:$l" \
            "--initial-advertise-peer-urls http://127.0.0.1:$p --initial-cluster $ic" \
            "--initial-cluster-state new --initial-cluster-token isolde-$$" \
            "--heartbeat-interval 50 --election-timeout 500 --logger zap --log-level warn" >"$D/e$i.cmd"
        member_start "e$i"
        u="$u${u:+,}http://127.0.0.1:$c"
    done
    echo "$u" >"$D/urls"
    healthy
    members
    echo "export ISOLDE_ETCD_URLS='$u'"
    echo "export ISOLDE_ETCD_DIR='$D'"
}

# Wait (up to 30 s) until every member is healthy.
healthy() {
    for _ in $(seq 300); do
        etcdctl --endpoints="$(urls)" --command-timeout=1s endpoint health >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "etcd.sh: the cluster did not become healthy (see $D/e*.log)" >&2
    etcdctl --endpoints="$(urls)" --command-timeout=1s endpoint health >&2 || true
    exit 1
}

# DIR/members: "eN ID PEERPORT" for the proxy (IDs in hex, as the peers
# name themselves in X-Server-From).
members() {
    etcdctl --endpoints="$(urls)" member list | awk -F', ' '{ sub(/.*:/, "", $4); print $3, $1, $4 }' \
        >"$D/members.new"
    mv "$D/members.new" "$D/members"
}

leader() {
    etcdctl --endpoints="$(urls)" --command-timeout=1s endpoint status -w fields 2>/dev/null |
        awk -F' : ' '/"MemberID"/ { id = $2 } /"Leader"/ { if ($2 == id) found = id } END { print found }' |
        while read -r id; do
            hex=$(printf '%x' "$id")
            awk -v id="$hex" '$2 == id { print $1 }' "$D/members"
        done
}

stop() {
    for f in "$D"/e1.pid "$D"/e2.pid "$D"/e3.pid "$D"/proxy.pid; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        kill -CONT "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
    done
    for f in "$D"/e1.pid "$D"/e2.pid "$D"/e3.pid "$D"/proxy.pid; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        rm -f "$f"
    done
}

case $cmd in
start) start ;;
stop) stop ;;
kill) kill -KILL "$(cat "$D/${3:?member}.pid")" ;;
restart) member_start "${3:?member}" ;;
leader) leader ;;
isolate) echo "${3:?member}" >"$D/isolate" ;;
heal) : >"$D/isolate" ;;
healthy) healthy ;;
*) echo "usage: etcd.sh start|stop|kill|restart|leader|isolate|heal|healthy DIR [eN]" >&2; exit 2 ;;
esac
