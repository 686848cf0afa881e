#!/bin/sh
# Where a history's bytes come from, through `isolde check`: gzip files,
# "-" for standard input (plain or gzip), pipes and devices, files that
# shrink while they are read; and what no history is (binary data, UTF-16)
# refused at once, with messages that show raw bytes escaped and --json
# output that stays valid JSON whatever bytes the input had. First the
# cases of tests/data/gzip, each checking as its header says
# (tests/data/README).
. tests/clilib.sh "$@"
r=tests/data/read
test_cases tests/data/gzip

test_case "- reads standard input: a redirect, a pipe" <<'T'
expect_status 1 "$isolde" check - < "$r/history.txt"
expect_out '^anomaly-types: G1c'
cat "$r/history-twin.edn" | "$isolde" check -m list-append - > "$tmp/o" || test $? = 1
grep -q '^anomaly-types: G1c' "$tmp/o"
printf '{:type :ok}\n{:type 1 2}' | "$isolde" check - 2> "$tmp/e" || test $? = 3
grep -q '^<stdin>:2:1: map literal must contain an even number of forms' "$tmp/e"
printf '{:type :ok}\n{:type' | "$isolde" check - 2> "$tmp/e" || test $? = 2
grep -q '^<stdin>:2:1: warning: line 2, the last, is cut short (it has no newline and does not parse: unterminated map' "$tmp/e"
T

# gzip histories: a build with zlib.
needs_feature zlib

test_case "a gzip-compressed history.edn reads as the history it holds" <<'T'
gzip -c "$r/history-twin.edn" > "$tmp/history.edn.gz"
expect_status 1 "$isolde" check "$tmp/history.edn.gz"
expect_out '^anomaly-types: G1c'
expect_out '^checked: 6 client ops, in 3 transactions (2 other ops left out)'
T

test_case "- reads gzip through a pipe" <<'T'
gzip -c "$r/history.txt" | "$isolde" check - > "$tmp/o" || test $? = 1
grep -q '^anomaly-types: G1c' "$tmp/o"
T

test_case "a truncated or corrupt gzip file is an error, exit 3" <<'T'
seq 1 3000 | sed 's/.*/{:type :ok, :process 0, :value [[:append :x &]]}/' | gzip -c > "$tmp/big.gz"
head -c 2000 "$tmp/big.gz" > "$tmp/cut.gz"
expect_status 3 "$isolde" check "$tmp/cut.gz"
expect_err 'cut.gz: cannot inflate the gzip data: it ends early (truncated?)'
printf '\037\213\010\000garbage' > "$tmp/bad.gz"
expect_status 3 "$isolde" check "$tmp/bad.gz"
expect_err 'bad.gz: cannot inflate the gzip data'
T

test_case "bytes after the gzip data are an error at their own offset" <<'T'
gzip -c "$r/history-twin.edn" > "$tmp/tail.gz"
n=$(wc -c < "$tmp/tail.gz")
printf 'garbage!' >> "$tmp/tail.gz"
expect_status 3 "$isolde" check "$tmp/tail.gz"
expect_err "tail.gz: cannot inflate the gzip data: what follows the end of the gzip data is not another gzip member (at compressed byte $n)"
gzip -c "$r/history-twin.edn" >> "$tmp/two.gz"
gzip -c /dev/null >> "$tmp/two.gz"
expect_status 1 "$isolde" check "$tmp/two.gz"
T

test_case "a gzip bomb (100 MB of spaces in 100 kB) is refused past 64 MiB, saying why" <<'T'
head -c 100000000 /dev/zero | tr '\0' ' ' | gzip -c > "$tmp/bomb.gz"
expect_status 3 "$isolde" check "$tmp/bomb.gz"
expect_err 'bomb.gz: refused as a compression bomb: its first [0-9]* compressed bytes inflate to [0-9]*, more than 1000:1'
T

needs_feature

test_case "a named pipe is read like a file" <<'T'
mkfifo "$tmp/fifo"
cat "$r/history.txt" > "$tmp/fifo" &
expect_status 1 "$isolde" check "$tmp/fifo"
expect_out '^anomaly-types: G1c'
wait
T

test_case "/dev/zero is binary data, refused at once (not read until memory runs out)" <<'T'
expect_status 3 timeout 20 "$isolde" check /dev/zero
expect_err '^/dev/zero: binary data (a NUL byte at offset 0), not a history'
T

test_case "UTF-16 (with or without a byte order mark) is not supported, and says so" <<'T'
printf '\377\376{\000:\000t\000y\000p\000e\000' > "$tmp/bom16.edn"
expect_status 3 "$isolde" check "$tmp/bom16.edn"
expect_err 'bom16.edn:1:1: UTF-16 is not supported: convert the file to UTF-8 (iconv -f UTF-16 -t UTF-8)'
printf '{\000"\000t\000y\000p\000e\000"\000:\000"\000o\000k\000"\000}\000\n\000' > "$tmp/le16.jsonl"
expect_status 3 "$isolde" check "$tmp/le16.jsonl"
expect_err 'le16.jsonl:1:1: UTF-16 is not supported'
T

test_case "a second byte order mark, and raw bytes, are shown escaped in messages" <<'T'
printf '\357\273\277{"type":"ok"}\n\357\273\277{"type":"ok"}\n' > "$tmp/joined.jsonl"
expect_status 3 "$isolde" check "$tmp/joined.jsonl"
expect_err 'joined.jsonl:2:1: a byte order mark (0xef 0xbb 0xbf) inside the input'
printf '{:type :\377\376ok}\n' > "$tmp/raw.edn"
expect_status 3 "$isolde" check "$tmp/raw.edn"
expect_err 'raw.edn:1:1: :type must be one of invoke, ok, fail, info, got :\\xff\\xfeok$'
not grep -q "$(printf '\377')" "$tmp/err"
T

test_case "invalid UTF-8 in a key: --json output is valid JSON (U+FFFD)" <<'T'
printf '{:type :ok, :process 0, :value [[:append :k\377 1]]}\n{:type :ok, :process 2, :value [[:r :k\377 [2]]]}\n' > "$tmp/u.edn"
expect_status 1 "$isolde" check --json "$tmp/u.edn"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); assert "garbage-read" in d["anomaly-types"]' "$tmp/out"
expect_out 'k\\ufffd'
T

# A file that is no history gets the reader's words after the format that
# detection tried and why (issue 23): tests/data/wording/notes.md and
# hello.txt, run by t0200.
test_case "a history with a bad first op keeps the reader's words alone" <<'T'
printf '{"type":"ok","process":0,"value":[["r",1,nil]]}\n' >"$tmp/nil.jsonl"
expect_status 3 "$isolde" check "$tmp/nil.jsonl"
not grep -q 'not a history' "$tmp/err"
T

finish
