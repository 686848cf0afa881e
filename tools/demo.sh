#!/bin/sh
# make demo: the main job on the embedded default -- drive SQLite with
# concurrent clients, record the history, check it -- then check the example
# histories in examples/. Exits non-zero when the run does not end valid
# (an error, anomalies, unknown) or an example cannot be checked (exit 3).
isolde=${1:-build/isolde}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "== isolde run sqlite (8 clients, SQLite file $dir/demo.db)"
st=0
"$isolde" run sqlite --url "$dir/demo.db" -o "$dir/history.jsonl" || st=$?
echo "== exit status $st"
failed=""
[ "$st" = 0 ] || failed="isolde run sqlite (exit $st)"
for f in examples/*.edn examples/*.json examples/*.jsonl; do
    [ -f "$f" ] || continue
    echo
    echo "== isolde check $f"
    st=0
    "$isolde" check --max-examples 1 "$f" || st=$?
    echo "== exit status $st"
    [ "$st" -lt 3 ] || failed="$failed${failed:+, }isolde check $f (exit $st)"
done
[ -z "$failed" ] && exit 0
echo "demo: failed: $failed" >&2
exit 1
