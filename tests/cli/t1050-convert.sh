#!/bin/sh
# isolde convert: a history written in another format (Elle's JSON lines,
# elle-cli's JSON, EDN, Plume's text, dbcop's bincode) reads back to the same
# verdict: rw-register histories of bench/gen_history (-I: no unknown
# outcomes, which Plume and dbcop cannot hold), valid and anomalous, checked
# serializable and snapshot-isolation (these formats hold no time, so no
# strict model) through every format and through chains of them; Plume to
# dbcop and back is the same bytes (dbcop keeps an aborted transaction's
# reads, Plume drops them). What a target cannot hold is refused
# with the op and why, exit 3, and no file is left; usage errors exit 3.
# Cobra's logs, a directory of them, read and converted; Chronos's
# timestamps kept as the ops' times.
. tests/clilib.sh "$@"
gen=$build/bench/gen_history

verdict() { # FILE MODEL: the exit status and the anomaly types
    _v=0
    "$isolde" check -m rw-register -c "$2" --json "$1" >"$tmp/v.json" || _v=$?
    printf '%s %s\n' "$_v" "$(tr -d '\n' <"$tmp/v.json" | sed -n 's/.*"anomaly-types": *\(\[[^]]*\]\).*/\1/p')"
}

same_verdicts() { # A B: the same verdict under both models
    for _m in serializable snapshot-isolation; do
        _a=$(verdict "$1" $_m)
        _b=$(verdict "$2" $_m)
        [ "$_a" = "$_b" ] || { echo "$_m: $1 says $_a, $2 says $_b" >&2; return 1; }
    done
}

s=0
for shape in "-s 1" "-s 2 -p 3 -k 2 -a" "-s 3 -p 40 -k 20 -a" "-s 4 -p 5 -k 3 -a" "-s 5 -p 8 -k 4"; do
    s=$((s + 1))
    h=$tmp/h$s.jsonl
    "$gen" -m rw-register -n 1500 -I $shape >"$h"
    for t in plume dbcop jsonl json edn; do
        test_case "gen_history -I $shape: through $t, the same verdicts" <<'T'
"$isolde" convert "$h" -t $t -o "$tmp/h$s.$t"
same_verdicts "$h" "$tmp/h$s.$t"
T
    done
    test_case "gen_history -I $shape: jsonl -> plume -> dbcop -> edn -> plume, the same verdicts" <<'T'
"$isolde" convert "$h" -t plume -o "$tmp/c1"
"$isolde" convert "$tmp/c1" -t dbcop -o "$tmp/c2"
"$isolde" convert "$tmp/c2" -t edn -o "$tmp/c3"
"$isolde" convert "$tmp/c3" -t plume -o "$tmp/c4"
same_verdicts "$h" "$tmp/c4"
cmp "$tmp/c1" "$tmp/c4"
T
done

for f in plume-write-skew.txt dbcop-lost-update.bincode awdit-g1c.txt cobra-dir chronos-write-skew.json; do
    for t in plume dbcop jsonl json edn; do
        test_case "tests/data/read/$f through $t: the same verdicts" <<'T'
"$isolde" convert "tests/data/read/$f" -t $t -o "$tmp/r.$t"
same_verdicts "tests/data/read/$f" "$tmp/r.$t"
T
    done
done

test_case "an anomalous history stays anomalous through Plume" <<'T'
test "$(verdict "$tmp/h3.plume" serializable | cut -c1)" = 1
T

test_case "the formats are detected from content: dbcop to Plume is JSON lines to Plume" <<'T'
expect_status 0 "$isolde" convert "$tmp/h2.dbcop" -t plume -o "$tmp/d1"
cmp "$tmp/d1" "$tmp/h2.plume"
expect_status 0 "$isolde" convert "$tmp/h2.plume" -t dbcop -o "$tmp/d2"
expect_status 0 "$isolde" convert "$tmp/d2" -t plume -o "$tmp/d3"
cmp "$tmp/d3" "$tmp/h2.plume"
T

test_case "standard input in, standard output out" <<'T'
"$isolde" convert - -t plume <"$tmp/h1.jsonl" >"$tmp/s.plume"
cmp "$tmp/s.plume" "$tmp/h1.plume"
T

test_case "list-append into Plume: refused with the op and why, nothing left" <<'T'
expect_status 3 "$isolde" convert examples/g1c.json -t plume -o "$tmp/la.txt"
expect_err "g1c.json:3:2: Plume's text cannot hold this op: a micro-op other than r or w"
not test -e "$tmp/la.txt"
ls "$tmp" >"$tmp/ls"
not grep -q 'la.txt' "$tmp/ls"
T

test_case "an unknown outcome into dbcop: refused" <<'T'
printf '%s\n' '{:type :invoke, :process 0, :value [[:w 1 1]]}' '{:type :info, :process 0, :value [[:w 1 1]]}' >"$tmp/info.edn"
expect_status 3 "$isolde" convert "$tmp/info.edn" -t dbcop -o "$tmp/info.bincode"
expect_err "info.edn:2:1: dbcop's bincode cannot hold this op: a transaction whose outcome is unknown (info)"
not test -e "$tmp/info.bincode"
T

test_case "a write of 0, a string key, a negative value into Plume: refused" <<'T'
printf '%s\n' '{:type :ok, :process 0, :value [[:w 1 0]]}' >"$tmp/z.edn"
expect_status 3 "$isolde" convert "$tmp/z.edn" -t plume
expect_err "a value of 0, which is every key's initial value there"
printf '%s\n' '{:type :ok, :process 0, :value [[:w :x 1]]}' >"$tmp/k.edn"
expect_status 3 "$isolde" convert "$tmp/k.edn" -t plume
expect_err "a key that is no integer of 0 or more"
printf '%s\n' '{:type :ok, :process 0, :value [[:r 1 -4]]}' >"$tmp/n.edn"
expect_status 3 "$isolde" convert "$tmp/n.edn" -t dbcop
expect_err "a value that is no integer of 0 or more"
T

test_case "a failed transaction: Plume keeps its writes as TXN -1, dbcop as not successful" <<'T'
printf '%s\n' '{:type :invoke, :process 0, :value [[:r 2 nil] [:w 1 3]]}' '{:type :fail, :process 0, :value [[:r 2 nil] [:w 1 3]]}' '{:type :ok, :process 1, :value [[:r 1 3]]}' >"$tmp/f.edn"
"$isolde" convert "$tmp/f.edn" -t plume >"$tmp/f.txt"
test "$(cat "$tmp/f.txt")" = "$(printf 'w(1,3,0,-1)\nr(1,3,1,0)')"
expect_status 1 "$isolde" check -c read-committed "$tmp/f.txt"
expect_out 'G1a'
"$isolde" convert "$tmp/f.edn" -t dbcop -o "$tmp/f.bincode"
expect_status 1 "$isolde" check -c read-committed "$tmp/f.bincode"
expect_out 'G1a'
T

test_case "a nemesis's ops are left out of Plume and dbcop, kept in JSON lines" <<'T'
printf '%s\n' '{:type :info, :process :nemesis, :f :start-partition, :value nil}' '{:type :ok, :process 0, :value [[:w 1 3]]}' >"$tmp/nem.edn"
"$isolde" convert "$tmp/nem.edn" -t plume >"$tmp/nem.txt"
test "$(cat "$tmp/nem.txt")" = 'w(1,3,0,0)'
"$isolde" convert "$tmp/nem.edn" -t jsonl >"$tmp/nem.jsonl"
grep -q '"process":"nemesis"' "$tmp/nem.jsonl"
T

test_case "usage: no -t, an unknown format, a format not written, two inputs" <<'T'
expect_status 3 "$isolde" convert "$tmp/h1.jsonl"
expect_err 'give the format to write (-t FORMAT)'
expect_status 3 "$isolde" convert "$tmp/h1.jsonl" -t plumes
expect_err "unknown format 'plumes'"
expect_status 3 "$isolde" convert "$tmp/h1.jsonl" -t onelite
expect_err 'isolde writes edn, json, jsonl, plume and dbcop, not onelite'
expect_status 3 "$isolde" convert "$tmp/h1.jsonl" "$tmp/h1.jsonl" -t edn
expect_err 'give one history (IN), not 2'
T

test_case "an unreadable input: its error, exit 3" <<'T'
printf 'r(1,1,0,0)\nr(1,x,0,0)\n' >"$tmp/bad.txt"
expect_status 3 "$isolde" convert "$tmp/bad.txt" -t jsonl
expect_err 'bad.txt:2:5: unexpected .x., expected the value'
T

test_case "Cobra's logs: a directory, one session a .log file (other files ignored)" <<'T'
expect_status 1 "$isolde" check -c serializable tests/data/read/cobra-dir
expect_out 'G2-item'
expect_out 'checked: 6 client ops, in 3 transactions'
expect_status 0 "$isolde" check -c snapshot-isolation tests/data/read/cobra-dir
"$isolde" convert tests/data/read/cobra-dir -t plume -o "$tmp/cobra.txt"
same_verdicts tests/data/read/cobra-dir "$tmp/cobra.txt"
T

test_case "a directory with no log, and a log's error named by its file and byte" <<'T'
mkdir "$tmp/empty"
expect_status 3 "$isolde" check "$tmp/empty"
expect_err "is a directory, with no .log file"
mkdir "$tmp/logs"
cp tests/data/read/cobra-dir/T2.log "$tmp/logs/"
cp tests/data/read/bad/cobra-open.log "$tmp/logs/T9.log"
expect_status 3 "$isolde" check "$tmp/logs"
expect_err "logs/T9.log: at byte 34: the log ends inside a transaction"
expect_status 3 "$isolde" check -f jsonl tests/data/read/cobra-dir
expect_err "cobra-dir: a directory is read as Cobra's logs, not as jsonl"
T

test_case "Chronos's JSON: its timestamps are the ops' times (P * 65536 + L), kept through JSON lines" <<'T'
"$isolde" convert tests/data/read/chronos-write-skew.json -t jsonl -o "$tmp/ch.jsonl"
grep -q '"index":0,"time":6553600,"type":"invoke","process":0' "$tmp/ch.jsonl"
grep -q '"index":5,"time":7012354,"type":"ok","process":0' "$tmp/ch.jsonl"
same_verdicts tests/data/read/chronos-write-skew.json "$tmp/ch.jsonl"
T

test_case "isolde --help and the man page list convert" <<'T'
expect_status 0 "$isolde" --help
expect_out 'convert IN -t FORMAT'
expect_status 0 "$isolde" convert --help
expect_out 'plume (Plume'
"$isolde" --man | grep -q 'isolde convert'
T

finish
