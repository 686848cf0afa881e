#!/bin/sh
# fuzz/seeds.sh DIR -- the seed corpus of every fuzz target, made afresh in
# DIR: each file of tests/data and examples and (when present)
# $ISOLDE_SHARED/corpus (default ../shared) of at most 64 KiB, and each line
# of tests/data/exec/ (reply lines of the exec protocol) alone, named
# by content so that copies count once. Nothing here goes into git.
set -eu
out=$1
shared=${ISOLDE_SHARED:-../shared}
rm -rf "$out"
mkdir -p "$out"
add() { # file
    sum=$(sha1sum <"$1" | cut -c1-16)
    cp "$1" "$out/$sum"
}
dirs="tests/data examples"
[ -d "$shared/corpus" ] && dirs="$dirs $shared/corpus"
find $dirs -type f -size -65537c | sort | while read -r f; do add "$f"; done
tmp=$out/.line
find tests/data/exec -type f | sort | while read -r f; do
    while IFS= read -r line; do
        printf '%s' "$line" >"$tmp"
        add "$tmp"
    done <"$f"
done
rm -f "$tmp"
echo "  SEEDS  $out: $(ls "$out" | wc -l) files"
