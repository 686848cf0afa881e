#!/bin/sh
# Jepsen's workloads (issue 15) on each SQL backend the suite has
# (tests/servers/ starts the servers; tests/sqllib.sh loops over
# tests/data/sql/backends.tsv): which levels pass which workloads and
# which are too weak, one row of tests/data/sql/jepsen.tsv a run; a
# password appears in no output and no history. (SQLite's and the exec
# protocol's bank, set and counter alone: t6310.)
. tests/clilib.sh "$@"
. tests/sqllib.sh

run_w() { # STATUS WORKLOAD LEVEL N P: a run on fresh tables, its history in $tmp/h.jsonl
    expect_status "$1" "$isolde" run $be $(sql_fresh) -w "$2" -i "$3" -n "$4" -p "$5" -o "$tmp/h.jsonl"
}

shows() { # ERROR WORKLOAD LEVEL N P: status 1 naming ERROR within three runs
    for _try in 1 2 3; do
        run_w 1 "$2" "$3" "$4" "$5" 2>/dev/null && expect_out "^errors:.*$1" && return 0
    done
    cat "$tmp/out"
    return 1
}

workload_cases() {
    sql_rows tests/data/sql/jepsen.tsv >"$tmp/.jepsen"
    while IFS="$tab" read -r line w level n p st says hist; do
        if [ "$st" = 1 ]; then
            test_case "jepsen.tsv:$line: $who $level is too weak for $w: $says" "shows $says $w $level $n $p"
            continue
        fi
        test_case "jepsen.tsv:$line: $who $level passes $w" <<T
run_w 0 $w $level $n $p
$(printf '%s\n' "$says" | sed 's/;;/\n/g' | grep -v '^-$' | sed "s/.*/expect_out '&'/")
$( [ "$hist" = - ] || echo "grep -q '$hist' \"\$tmp/h.jsonl\"" )
test -z "\$pw" || not grep -q -F "\$pw" "\$tmp/h.jsonl" "\$tmp/out" "\$tmp/err"
T
    done <"$tmp/.jepsen"
}

for b in $(sql_backends tests/data/sql/jepsen.tsv); do
    sql_use "$b" "runs of Jepsen's workloads" || continue
    workload_cases
done

finish
