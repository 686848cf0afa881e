#!/bin/sh
# tests/servers/galera.sh start DIR | stop DIR -- a three-node MariaDB
# Galera cluster on one machine, each node in a network namespace of its
# own (ip netns: isolde-gPID-1..3) so that the nodes reach each other only
# through an `isolde proxy` this script starts: in node j's namespace the
# proxy listens at node i's gcomm, IST and SST ports (link nj>ni) and
# forwards to node i's namespace, so `cut n1 n2,n3` on its control port
# partitions the cluster for real (the addresses the nodes gossip are the
# proxy's, in every namespace). The clients' ports are links clients>nI
# on 127.0.0.1 in the machine's namespace. Node 1 bootstraps
# (--wsrep-new-cluster), 2 and 3 join one at a time (rsync SST), each
# waited for until wsrep_cluster_size says so.
# `start` prints what the tests need:
#   ISOLDE_GALERA_URLS     mysql://isolde:PW@127.0.0.1:P1/isolde,... (the password in them)
#   ISOLDE_GALERA_CONTROL  the peer proxy's control port (isolde run --proxy-control)
#   ISOLDE_GALERA_DIR      DIR
# Runs as root (the servers as the mysql user); nothing outside DIR and
# the namespaces it made is touched, and no firewall. `stop` removes DIR.
set -eu
# The servers run as their own users: a caller's private TMPDIR (a test's) is unreadable to them.
export TMPDIR=/tmp
cmd=${1:?usage: galera.sh start|stop DIR}
D=${2:?usage: galera.sh start|stop DIR}
isolde=${ISOLDE:-build/isolde}
command -v mariadbd >/dev/null || { echo "galera.sh: MariaDB is not installed (mariadb-server)" >&2; exit 2; }
[ -f /usr/lib/galera/libgalera_smm.so ] || { echo "galera.sh: galera-4 is not installed" >&2; exit 2; }
command -v ip >/dev/null || { echo "galera.sh: no ip (iproute2)" >&2; exit 2; }

ns() { echo "isolde-g$(cat "$D/id")-$1"; }

cnf() { # I
    cat <<CNF
[mysqld]
user=mysql
datadir=$D/n$1/data
socket=$D/n$1/sock
pid-file=$D/n$1/pid
log-error=$D/n$1/err.log
bind-address=127.0.0.1
port=3306
skip-name-resolve
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=64M
innodb_flush_log_at_trx_commit=2
innodb_lock_wait_timeout=5
max_connections=300
wsrep_on=ON
wsrep_provider=/usr/lib/galera/libgalera_smm.so
wsrep_cluster_name=isolde
wsrep_cluster_address=gcomm://127.0.0.1:4561,127.0.0.1:4562,127.0.0.1:4563
wsrep_node_name=n$1
wsrep_node_address=127.0.0.1:456$1
wsrep_node_incoming_address=127.0.0.1:3306
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:456$1;ist.recv_addr=127.0.0.1:457$1;gcache.size=32M"
wsrep_sst_receive_address=127.0.0.1:458$1
wsrep_sst_method=rsync
CNF
}

size_is() { # I N: node I says the cluster has N nodes
    s=$(mariadb --no-defaults --socket="$D/n$1/sock" -uroot -N -e "show status like 'wsrep_cluster_size'" 2>/dev/null | awk '{print $2}')
    [ "$s" = "$2" ]
}

start_node() { # I [options]
    i=$1; shift
    mkdir -p "$D/n$i/data"
    cnf "$i" >"$D/n$i/my.cnf"
    chown -R mysql:mysql "$D/n$i"
    mariadb-install-db --defaults-file="$D/n$i/my.cnf" --skip-test-db >"$D/n$i/install.log" 2>&1 ||
        { echo "galera.sh: mariadb-install-db failed for node $i:" >&2; tail -5 "$D/n$i/install.log" >&2; exit 1; }
    ip netns exec "$(ns "$i")" mariadbd --defaults-file="$D/n$i/my.cnf" "$@" </dev/null >/dev/null 2>&1 &
    n=0
    until size_is "$i" "$i"; do
        n=$((n + 1))
        [ $n -lt 600 ] || { echo "galera.sh: node $i did not join: $D/n$i/err.log" >&2; tail -5 "$D/n$i/err.log" >&2; exit 1; }
        sleep 0.1
    done
}

links() { # the proxy's --link arguments
    for j in 1 2 3; do
        echo "--link clients>n$j@127.0.0.1:0=$(ns $j)/127.0.0.1:3306"
        for i in 1 2 3; do
            [ "$i" = "$j" ] && continue
            for p in 456$i 457$i 458$i; do echo "--link n$j>n$i@$(ns $j)/127.0.0.1:$p=$(ns $i)/127.0.0.1:$p"; done
        done
    done
}

start() {
    mkdir -p "$D"
    chmod 755 "$D"
    echo $$ >"$D/id"
    : >"$D/proxy.out"
    for i in 1 2 3; do
        ip netns add "$(ns $i)"
        ip -n "$(ns $i)" link set lo up
    done
    # shellcheck disable=SC2046
    "$isolde" proxy --no-stdin --control 127.0.0.1:0 $(links) </dev/null >"$D/proxy.out" 2>"$D/proxy.err" &
    echo $! >"$D/proxy.pid"
    n=0
    until grep -q '^ready' "$D/proxy.out"; do
        n=$((n + 1))
        [ $n -lt 50 ] || { echo "galera.sh: the proxy did not start: $(cat "$D/proxy.err")" >&2; exit 1; }
        sleep 0.1
    done
    start_node 1 --wsrep-new-cluster
    start_node 2
    start_node 3
    pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    mariadb --no-defaults --socket="$D/n1/sock" -uroot -e "CREATE USER 'isolde'@'127.0.0.1' IDENTIFIED BY '$pw';
        GRANT ALL ON *.* TO 'isolde'@'127.0.0.1'; CREATE DATABASE isolde;"
    urls=""
    for j in 1 2 3; do
        port=$(sed -n "s/^link clients>n$j@.* port //p" "$D/proxy.out")
        urls="$urls${urls:+,}mysql://isolde:$pw@127.0.0.1:$port/isolde"
    done
    echo "export ISOLDE_GALERA_URLS='$urls'"
    echo "export ISOLDE_GALERA_CONTROL='$(sed -n 's/^control //p' "$D/proxy.out")'"
    echo "export ISOLDE_GALERA_DIR='$D'"
}

stop() {
    [ -f "$D/id" ] || return 0
    for i in 3 2 1; do
        [ -f "$D/n$i/pid" ] || continue
        pid=$(cat "$D/n$i/pid")
        kill "$pid" 2>/dev/null || true
        n=0
        while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
        kill -9 "$pid" 2>/dev/null || true
    done
    [ -f "$D/proxy.pid" ] && kill "$(cat "$D/proxy.pid")" 2>/dev/null || true
    for i in 1 2 3; do ip netns del "$(ns $i)" 2>/dev/null || true; done
    rm -rf "$D" # the nodes' data: hundreds of MB
}

case $cmd in
start) start ;;
stop) stop ;;
*) echo "usage: galera.sh start|stop DIR" >&2; exit 2 ;;
esac
