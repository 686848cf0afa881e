#!/bin/sh
# tests/tools/readme_isolde.sh -- `isolde` on the PATH of the README's
# blocks in tests/cli/t9200-readme.sh: runs the build's binary
# ($ISOLDE_README_REAL), appends "STATUS isolde ARGS" to
# $ISOLDE_README_STATUS, and exits 0 for a verdict (0 valid, 1 invalid,
# 2 unknown), so that a block run with sh -e goes on after an anomaly and
# stops at an error. SIGTERM and SIGINT (a block's `kill %1`) reach the
# binary, and its status is recorded when it ends.
"$ISOLDE_README_REAL" "$@" <&0 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null' TERM INT
st=0
wait $pid || st=$?
while kill -0 $pid 2>/dev/null; do st=0; wait $pid || st=$?; done
echo "$st isolde $*" >>"$ISOLDE_README_STATUS"
case $st in 0|1|2) exit 0 ;; *) exit "$st" ;; esac
