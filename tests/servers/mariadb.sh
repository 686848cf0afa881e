#!/bin/sh
# tests/servers/mariadb.sh start DIR [mariadbd options] | stop DIR -- a
# MariaDB server on loopback for the tests, in DIR (made if missing), with
# TLS (a self-signed certificate for 127.0.0.1: DIR/ca.pem) and the user
# isolde@127.0.0.1 with a password, database isolde. Options after DIR go
# to mariadbd (e.g. --innodb-snapshot-isolation=ON).
# `start` prints the shell lines that tell the tests where it is:
#   ISOLDE_MYSQL_URL       mysql://isolde@127.0.0.1:PORT/isolde (no password)
#   ISOLDE_MYSQL_PASSWORD  the user's password (random per start)
#   ISOLDE_MYSQL_CA        the certificate to verify the server with
#   ISOLDE_MYSQL_PID       the server's pid file
# Runs as root (the server as the mysql user). Nothing outside DIR is touched.
set -eu
# The servers run as their own users: a caller's private TMPDIR (a test's) is unreadable to them.
export TMPDIR=/tmp
cmd=${1:?usage: mariadb.sh start|stop DIR}
D=${2:?usage: mariadb.sh start|stop DIR}
shift 2
command -v mariadbd >/dev/null || { echo "mariadb.sh: MariaDB is not installed (mariadb-server)" >&2; exit 2; }

. "$(dirname "$0")/ports.sh"

start() {
    mkdir -p "$D/data"
    chmod 755 "$D"
    port=$(free_port)
    pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
        -keyout "$D/server.key" -out "$D/server.crt" >/dev/null 2>&1
    cp "$D/server.crt" "$D/ca.pem"
    [ "$(id -u)" = 0 ] && chown -R mysql:mysql "$D"
    mariadb-install-db --no-defaults --datadir="$D/data" --user=mysql --skip-test-db --skip-name-resolve \
        >"$D/install.log" 2>&1 || { echo "mariadb.sh: mariadb-install-db failed:" >&2; tail -5 "$D/install.log" >&2; exit 1; }
    mariadbd --no-defaults --datadir="$D/data" --user=mysql --bind-address=127.0.0.1 --port="$port" \
        --socket="$D/sock" --pid-file="$D/pid" --log-error="$D/err.log" --skip-name-resolve \
        --innodb-buffer-pool-size=128M --innodb-flush-log-at-trx-commit=2 --innodb-lock-wait-timeout=5 \
        --max-connections=300 --ssl-cert="$D/server.crt" --ssl-key="$D/server.key" "$@" \
        </dev/null >/dev/null 2>&1 &
    i=0
    until mariadb-admin --no-defaults --socket="$D/sock" -uroot ping >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -lt 300 ] || { echo "mariadb.sh: the server did not start: $D/err.log" >&2; exit 1; }
        sleep 0.1
    done
    mariadb --no-defaults --socket="$D/sock" -uroot -e "CREATE USER 'isolde'@'127.0.0.1' IDENTIFIED BY '$pw';
        GRANT ALL ON *.* TO 'isolde'@'127.0.0.1'; CREATE DATABASE isolde;"
    echo "export ISOLDE_MYSQL_URL='mysql://isolde@127.0.0.1:$port/isolde'"
    echo "export ISOLDE_MYSQL_PASSWORD='$pw'"
    echo "export ISOLDE_MYSQL_CA='$D/ca.pem'"
    echo "export ISOLDE_MYSQL_PID='$D/pid'"
}

stop() {
    [ -f "$D/pid" ] || return 0
    pid=$(cat "$D/pid")
    kill "$pid" 2>/dev/null || true
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null || true
}

case $cmd in
start) start "$@" ;;
stop) stop ;;
*) echo "usage: mariadb.sh start|stop DIR" >&2; exit 2 ;;
esac
