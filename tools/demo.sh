#!/bin/sh
# make demo: the main job on the embedded default -- drive SQLite with
# concurrent clients, record the history, check it -- then check the example
# histories in examples/.
isolde=${1:-build/isolde}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "== isolde run sqlite (8 clients, SQLite file $dir/demo.db)"
"$isolde" run sqlite --url "$dir/demo.db" -o "$dir/history.jsonl"
echo "== exit status $?"
for f in examples/*.edn examples/*.json examples/*.jsonl; do
    [ -f "$f" ] || continue
    echo
    echo "== isolde check $f"
    "$isolde" check --max-examples 1 "$f"
    echo "== exit status $?"
done
exit 0
