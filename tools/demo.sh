#!/bin/sh
# make demo: the main job on the embedded default -- drive SQLite with
# concurrent clients, record the history, check it -- then check the example
# histories in examples/. The run's database and history are kept in DIR
# (the second argument; default: demo/ beside the binary), named at the end.
# Exits non-zero when the run does not end valid (an error, anomalies,
# unknown) or an example cannot be checked (exit 3).
isolde=${1:-build/isolde}
dir=${2:-$(dirname "$isolde")/demo}
rm -rf "$dir"
mkdir -p "$dir"
echo "== isolde run sqlite (8 clients, SQLite file $dir/demo.db, history $dir/history.jsonl)"
st=0
"$isolde" run sqlite --url "$dir/demo.db" -o "$dir/history.jsonl" || st=$?
echo "== exit status $st"
failed=""
[ "$st" = 0 ] || failed="isolde run sqlite (exit $st)"
for f in examples/*; do
    case $f in *.py) continue ;; esac
    [ -f "$f" ] || continue
    echo
    opts=$(sed -n '1,10s/^[;#] check: //p' "$f") # how the example says it is checked
    echo "== isolde check $opts${opts:+ }$f"
    st=0
    "$isolde" check --max-examples 1 $opts "$f" || st=$?
    echo "== exit status $st"
    [ "$st" -lt 3 ] || failed="$failed${failed:+, }isolde check $f (exit $st)"
done
echo
echo "== the binary is $isolde (make install PREFIX=~/.local puts it in ~/.local/bin);"
echo "   the run's history is kept: $isolde check $dir/history.jsonl checks it again"
[ -z "$failed" ] && exit 0
echo "demo: failed: $failed" >&2
exit 1
