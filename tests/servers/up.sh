# tests/servers/up.sh -- sourced by tests/run-all.sh: starts the database
# servers the tests use (tests/servers/NAME.sh), each unless the
# environment already names one (ISOLDE_PG_URL, ISOLDE_MYSQL_URL,
# ISOLDE_ETCD_URLS) or it is
# not installed, under one temporary directory, and exports where they
# are; servers_down stops the ones it started. A server that is not there
# leaves its tests to say "skipped" (and fail under CI=true), with why it
# did not start (in VAR_WHY: ISOLDE_PG_URL_WHY ...).
servers_dir=$(mktemp -d /tmp/isolde-servers.XXXXXX)
chmod 755 "$servers_dir"
servers_started=""
_server_up() { # NAME VAR
    eval "_set=\${$2:-}"
    [ -n "$_set" ] && return 0
    if sh "tests/servers/$1.sh" start "$servers_dir/$1" >"$servers_dir/$1.env" 2>"$servers_dir/$1.err"; then
        . "$servers_dir/$1.env"
        servers_started="$servers_started $1"
        echo "== server $1: started (${servers_dir}/$1)"
    else
        _why=$(head -c 300 "$servers_dir/$1.err" | tr '\n' ' ')
        [ -n "$_why" ] || _why="tests/servers/$1.sh start failed"
        echo "== server $1: not started ($_why)"
        export "$2_WHY=$_why" # need_server says it
    fi
}
servers_down() {
    for _s in $servers_started; do sh "tests/servers/$_s.sh" stop "$servers_dir/$_s" || true; done
    [ -d "$servers_dir/galera" ] && sh tests/servers/galera.sh stop "$servers_dir/galera"
    rm -rf "$servers_dir"
}
# A Galera cluster is started by the first test that needs one (need_galera
# in tests/clilib.sh), in this directory.
export ISOLDE_SERVERS_DIR="$servers_dir"
_server_up postgres ISOLDE_PG_URL
_server_up mariadb ISOLDE_MYSQL_URL
_server_up etcd ISOLDE_ETCD_URLS
