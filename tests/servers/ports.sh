# tests/servers/ports.sh -- sourced by the server scripts: free_port prints
# a loopback port nobody listens on, below the ephemeral range
# (32768-60999: an outgoing connection never takes a port a killed server
# comes back to), and not one any test server on this machine took before
# (/tmp/isolde-test-ports, under a lock: two suites run at once, and a
# server the kill nemesis has down listens nowhere while it waits to come
# back to its port). The list starts again past 4000 ports (a third of the
# range), long after the suites that took them are gone.
# Whether port $1 was not taken yet, taking it (the caller holds the lock).
_port_take() {
    [ -f "$_taken" ] && [ "$(wc -l <"$_taken")" -gt 4000 ] && : >"$_taken"
    grep -qx "$1" "$_taken" 2>/dev/null && return 1
    echo "$1" >>"$_taken"
}
free_port() {
    _taken=${ISOLDE_TEST_PORTS:-/tmp/isolde-test-ports}
    while :; do
        p=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 12000 ))
        ss -ltn 2>/dev/null | grep -q ":$p " && continue
        if (flock 9 && _port_take "$p") 9>>"$_taken.lock"; then
            echo $p
            return
        fi
    done
}
