#!/bin/sh
# tests/tools/readme_isolde.sh -- `isolde` on the PATH of the README's
# blocks in tests/cli/t9200-readme.sh: runs the build's binary
# ($ISOLDE_README_REAL), appends "STATUS isolde ARGS" to
# $ISOLDE_README_STATUS, and exits 0 for a verdict (0 valid, 1 invalid,
# 2 unknown), so that a block run with sh -e goes on after an anomaly and
# stops at an error. SIGTERM and SIGINT (a block's `kill $proxy`) reach the
# binary, and its own status is recorded when it ends (a wait the signal
# interrupted is waited again).
"$ISOLDE_README_REAL" "$@" <&0 &
pid=$!
signalled=
trap 'signalled=1; kill -TERM $pid 2>/dev/null' TERM INT
st=0
wait $pid || st=$?
# a signal interrupts the wait (status 128+): wait for the binary's own
if [ -n "$signalled" ] && [ "$st" -gt 128 ]; then st=0; wait $pid || st=$?; fi
echo "$st isolde $*" >>"$ISOLDE_README_STATUS"
case $st in 0|1|2) exit 0 ;; *) exit "$st" ;; esac
