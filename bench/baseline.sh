#!/bin/sh
# bench/baseline.sh REV -- prints the path of an isolde binary built at git
# revision REV (default HEAD^), building it once in a worktree under
# $TMPDIR/isolde-baseline/<commit> (kept for later runs), for benchmarks
# that time the current build side by side with an earlier one:
#   make bench BASELINE=HEAD^
set -u
rev=${1:-HEAD^}
commit=$(git rev-parse --verify "$rev^{commit}" 2>/dev/null) || { echo "baseline: no revision '$rev'" >&2; exit 1; }
dir=${TMPDIR:-/tmp}/isolde-baseline/$commit
if [ ! -x "$dir/build/isolde" ]; then
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    git worktree add --detach -f "$dir" "$commit" >/dev/null 2>&1 || { echo "baseline: cannot check out $commit" >&2; exit 1; }
    make -C "$dir" -j2 all >/dev/null 2>&1 || { echo "baseline: $commit does not build" >&2; exit 1; }
fi
echo "$dir/build/isolde"
