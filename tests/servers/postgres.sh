#!/bin/sh
# tests/servers/postgres.sh start|restart|stop DIR | standby DIR [DELAY] -- a PostgreSQL 15 server
# on loopback for the tests, in DIR (made if missing), with TLS (a
# self-signed certificate for 127.0.0.1: DIR/ca.pem) and password
# authentication over TCP for the user isolde, database isolde.
# `start` prints the shell lines that tell the tests where it is:
#   ISOLDE_PG_URL       postgresql://isolde@127.0.0.1:PORT/isolde (no password)
#   ISOLDE_PG_PASSWORD  the user's password (random per start)
#   ISOLDE_PG_CA        the certificate to verify the server with
#   ISOLDE_PG_DIR       the data directory (its postmaster.pid: for faults)
#   ISOLDE_PG_HOME      DIR (for `postgres.sh restart DIR` after a kill)
# Runs as root (the server itself as the postgres user) or as any user
# who can run initdb. Nothing outside DIR is touched.
set -eu
# The servers run as their own users: a caller's private TMPDIR (a test's) is unreadable to them.
export TMPDIR=/tmp
cmd=${1:?usage: postgres.sh start|stop DIR}
D=${2:?usage: postgres.sh start|stop DIR}
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$BIN" ] || { echo "postgres.sh: PostgreSQL is not installed (postgresql-15)" >&2; exit 2; }
case $D in /*) ;; *) D=$PWD/$D ;; esac
# As root the server's programs run as the postgres user, from / (they
# change back to the directory they started in, which may be root's own).
as_pg() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }

. "$(dirname "$0")/ports.sh"

start() {
    mkdir -p "$D"
    chmod 755 "$D"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$D"
    port=$(free_port)
    pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    as_pg "$BIN/initdb" -D "$D/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 \
        --locale=C.UTF-8 >"$D/initdb.log" 2>&1
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
        -keyout "$D/data/server.key" -out "$D/data/server.crt" >/dev/null 2>&1
    cp "$D/data/server.crt" "$D/ca.pem"
    chmod 600 "$D/data/server.key"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$D/data/server.key" "$D/data/server.crt"
    cat >>"$D/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$D'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
wal_level = replica
hot_standby = on
max_connections = 200
fsync = off
deadlock_timeout = 100ms
full_page_writes = off
CONF
    # before initdb's lines (the first match wins): a standby's base backup
    sed -i '1i host replication postgres 127.0.0.1/32 trust' "$D/data/pg_hba.conf"
    as_pg "$BIN/pg_ctl" -D "$D/data" -l "$D/server.log" -w start >/dev/null
    as_pg "$BIN/psql" -h "$D" -p "$port" -U postgres -qAt -v ON_ERROR_STOP=1 <<SQL >/dev/null
CREATE USER isolde PASSWORD '$pw';
CREATE DATABASE isolde OWNER isolde;
SQL
    echo "export ISOLDE_PG_URL='postgresql://isolde@127.0.0.1:$port/isolde'"
    echo "export ISOLDE_PG_PASSWORD='$pw'"
    echo "export ISOLDE_PG_CA='$D/ca.pem'"
    echo "export ISOLDE_PG_DIR='$D/data'"
    echo "export ISOLDE_PG_BIN='$BIN'"
    echo "export ISOLDE_PG_HOME='$D'"
}

# After a crash (the kill nemesis): start again. A killed postmaster can
# stay a zombie where PID 1 reaps no orphans, and PostgreSQL takes its pid
# in postmaster.pid for a live server; the processes are gone (the kill
# nemesis waits for that), so the lock file is stale.
# A start that fails says why on stderr (the server log's last lines: the
# run records the exit status, the test shows stderr).
restart() {
    rm -f "$D/data/postmaster.pid" "$D"/.s.PGSQL.*.lock
    as_pg "$BIN/pg_ctl" -D "$D/data" -l "$D/server.log" -w start >/dev/null && return 0
    echo "postgres.sh restart: the server did not start; $D/server.log ends:" >&2
    tail -n 15 "$D/server.log" >&2
    return 1
}

# A hot standby of the server in DIR (pg_basebackup -R, streaming), in
# DIR/standby on a port of its own, applying the primary's WAL DELAY late
# (recovery_min_apply_delay; default 0). Prints ISOLDE_PG_STANDBY_URL.
standby() {
    delay=${1:-0}
    port=$(free_port)
    pport=$(sed -n "s/^port = //p" "$D/data/postgresql.conf" | tail -1)
    if [ -d "$D/standby" ]; then # an earlier one: a fresh copy
        as_pg "$BIN/pg_ctl" -D "$D/standby" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$D/standby"
    fi
    as_pg "$BIN/pg_basebackup" -w -h 127.0.0.1 -p "$pport" -U postgres -D "$D/standby" -R -X stream -c fast \
        >"$D/basebackup.log" 2>&1
    cat >>"$D/standby/postgresql.conf" <<CONF
port = $port
recovery_min_apply_delay = '$delay'
CONF
    as_pg "$BIN/pg_ctl" -D "$D/standby" -l "$D/standby.log" -w start >/dev/null
    echo "export ISOLDE_PG_STANDBY_URL='postgresql://isolde@127.0.0.1:$port/isolde'"
}

stop() {
    [ -f "$D/standby/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$D/standby" -m fast -w stop >/dev/null 2>&1 || true
    [ -f "$D/data/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$D/data" -m fast -w stop >/dev/null 2>&1 || true
}

case $cmd in
start) start ;;
restart) restart ;;
standby) standby "${3:-0}" ;;
stop) stop ;;
*) echo "usage: postgres.sh start|restart|stop DIR | standby DIR [DELAY]" >&2; exit 2 ;;
esac
