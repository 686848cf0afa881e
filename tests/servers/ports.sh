# tests/servers/ports.sh -- sourced by the server scripts: free_port prints
# a loopback port nobody listens on, below the ephemeral range
# (32768-60999: an outgoing connection never takes a port a killed server
# comes back to), and not one this server directory ($D) took before.
free_port() {
    while :; do
        p=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 12000 ))
        ss -ltn 2>/dev/null | grep -q ":$p " && continue
        grep -qx "$p" "$D/ports" 2>/dev/null && continue
        echo "$p" >>"$D/ports"
        echo $p
        return
    done
}
