#!/bin/sh
# The pictures of findings that are no plain cycle (issue 25): -d draws
# each as its proof reads -- the transactions of its Let:, and an edge per
# step, labelled with the step's type and the proof's words, as the cycles'
# pictures are (tests/cli/t6000): list-append's fractured-read (T2 -wr->
# T1, T1 -misses-> T2) and causality violations (the causal path's wr and
# process steps, the read that misses the first writer), non-monotonic-read-process
# (its cycle through session order) and not-my-own-write; rw-register's fractured-read, causality-violation,
# causality-violation-process and non-monotonic-read (every step, a forced
# one as co, its premise's steps each an edge, the initial state a node);
# not-my-own-write and not-my-last-write (the read that misses the
# transaction's own write, an edge to itself); long-fork (a cycle);
# rw-register's exact check (each case's cycle, what a case assumes marked
# "if" and named by its case). --html
# holds the same picture in the page's data.
. tests/clilib.sh "$@"

la=tests/data/list_append
rw=tests/data/rw_register
svg=
have_feature gvc && svg=yes

# draw DIR TYPE NODES EDGES CHECK-ARGS...: isolde check -d DIR finds TYPE,
# whose first picture has NODES nodes and EDGES edges (in the SVG too, when
# built with libgvc); its DOT is $tmp/DIR.dot.
draw() {
    _dir=$tmp/$1 _type=$2 _nodes=$3 _edges=$4
    shift 4
    expect_status 1 "$isolde" check -d "$_dir" "$@"
    cp "$_dir/$_type/0.dot" "$_dir.dot"
    test "$(grep -c '^  T[0-9]* \[label=' "$_dir.dot")" -eq "$_nodes"
    test "$(grep -c '^  T[0-9]* -> T[0-9]* \[label=' "$_dir.dot")" -eq "$_edges"
    [ -z "$svg" ] || test "$(grep -c 'class="node"' "$_dir/$_type/0.svg")" -eq "$_nodes"
    [ -z "$svg" ] || test "$(grep -c 'class="edge"' "$_dir/$_type/0.svg")" -eq "$_edges"
}

test_case "list-append fractured-read: the append observed (wr) and the read that misses the other" <<'T'
draw la-fr fractured-read 2 2 -m list-append -c read-atomic "$la/fractured-read.jsonl"
grep -q 'T1 \[label="T1 = {:index 5, :type :ok, :process 2' "$tmp/la-fr.dot"
grep -q 'T2 \[label="T2 = {:index 1, :type :ok, :process 0' "$tmp/la-fr.dot"
grep -q 'T2 -> T1 \[label="wr\\nT1 observed T2'"'"'s append of 4 to key \\"x\\""\];' "$tmp/la-fr.dot"
grep -q 'T1 -> T2 \[label="misses\\nT1 read key \\"y\\" as \[1 2\], which does not contain T2' "$tmp/la-fr.dot"
T

test_case "list-append causality-violation: the causal path (wr, wr) and the read that misses its first writer" <<'T'
draw la-cv causality-violation 3 3 -m list-append -c causal-cerone "$la/causality-violation.jsonl"
grep -q 'T1 -> T2 \[label="wr\\nT2 observed T1'"'"'s append of 1 to key \\"x\\""\];' "$tmp/la-cv.dot"
grep -q 'T2 -> T3 \[label="wr\\nT3 observed T2'"'"'s append of 1 to key \\"y\\""\];' "$tmp/la-cv.dot"
grep -q 'T3 -> T1 \[label="misses\\nT3 read key \\"x\\" as \[\], which does not contain T1' "$tmp/la-cv.dot"
T

test_case "list-append causality-violation-process: session order on the causal path" <<'T'
draw la-cvp causality-violation-process 2 2 -m list-append -c causal "$la/causality-violation-session.jsonl"
grep -q 'T1 -> T2 \[label="process\\nT2 follows T1 in its process"\];' "$tmp/la-cvp.dot"
grep -q 'T2 -> T1 \[label="misses\\nT2 read key \\"x\\" as \[\], which does not contain T1' "$tmp/la-cvp.dot"
T

test_case "list-append non-monotonic-read-process: the cycle through session order, each step's reason" <<'T'
draw la-nmrp non-monotonic-read-process 3 3 -m list-append -c read-committed-be "$la/rc-be-cycle-through-process-order.jsonl"
grep -q 'T1 -> T2 \[label="process\\nT1 < T2, because process 1 executed T1 before T2"\];' "$tmp/la-nmrp.dot"
grep -q 'T2 -> T3 \[label="ww\\nT2 < T3, because T3 appended 2 to key \\"z\\" after T2 appended 1"\];' "$tmp/la-nmrp.dot"
grep -q 'T3 -> T1 \[label="ww\\nT3 < T1, because T1 appended 2 to key \\"x\\", which no read of another' "$tmp/la-nmrp.dot"
T

test_case "list-append not-my-own-write: the own appends missed (a loop)" <<'T'
draw la-nmow not-my-own-write 1 1 -m list-append -c read-committed-be "$la/rc-be-not-my-own-or-last-write.jsonl"
grep -q 'T1 -> T1 \[label="misses\\nT1 read key \\"x\\" as \[\], which does not end with T1' "$tmp/la-nmow.dot"
T

test_case "rw-register fractured-read: the premise's wr, the forced co to the initial state, and back" <<'T'
draw rw-fr fractured-read 3 3 -m rw-register -c read-atomic "$rw/fractured-read.edn"
grep -q 'T3 \[label="the initial state\\l", shape=ellipse\];' "$tmp/rw-fr.dot"
grep -q 'T1 -> T2 \[label="wr\\nT1 wrote key :y = 1, which was read by T2"\];' "$tmp/rw-fr.dot"
grep -q 'T1 -> T3 \[label="co\\nT2 read key :x = nil, the initial state, though T1 wrote :x too' "$tmp/rw-fr.dot"
grep -q 'T3 -> T1 \[label="co\\nthe initial state precedes every write"\];' "$tmp/rw-fr.dot"
T

test_case "causality-violation: the causal path step by step, the forced co and the wr that closes the cycle" <<'T'
draw cv causality-violation 4 4 -m rw-register -c causal-cerone "$rw/causality-violation.edn"
grep -q 'T4 \[label="T4 = {:index 2, :type :ok, :process 2' "$tmp/cv.dot"
grep -q 'T1 -> T4 \[label="wr\\nT1 wrote key :x = 1, which was read by T4"\];' "$tmp/cv.dot"
grep -q 'T4 -> T3 \[label="wr\\nT4 wrote key :y = 1, which was read by T3"\];' "$tmp/cv.dot"
grep -q 'T1 -> T2 \[label="co\\nT3 read key :x = 0, written by T2, though T1 wrote :x too and T1' "$tmp/cv.dot"
grep -q 'T2 -> T1 \[label="wr\\nT2 wrote key :x = 0, which was read by T1"\];' "$tmp/cv.dot"
T

test_case "causality-violation-process: session order on the causal path" <<'T'
draw cvp causality-violation-process 4 4 -m rw-register -c causal "$rw/causality-violation-process.edn"
grep -q 'T1 -> T3 \[label="process\\nprocess 0 executed T1 before T3"\];' "$tmp/cvp.dot"
grep -q 'T3 -> T2 \[label="wr\\nT3 wrote key :y = 1, which was read by T2"\];' "$tmp/cvp.dot"
grep -q 'T1 -> T4 \[label="co\\nT2 read key :x = nil, the initial state' "$tmp/cvp.dot"
T

test_case "non-monotonic-read: the earlier read's wr and the forced co" <<'T'
draw nmr non-monotonic-read 3 3 -m rw-register -c read-committed-be "$rw/non-monotonic-read.edn"
grep -q 'T1 -> T3 \[label="wr\\nT1 wrote key :y = 1, which was read by T3"\];' "$tmp/nmr.dot"
grep -q 'T1 -> T2 \[label="co\\nT3 read key :x = 0, written by T2, after it had read a write of T1' "$tmp/nmr.dot"
grep -q 'T2 -> T1 \[label="wr\\nT2 wrote key :x = 0, which was read by T1"\];' "$tmp/nmr.dot"
T

test_case "not-my-own-write: the other's write read (wr) and the own write missed (a loop)" <<'T'
draw nmow not-my-own-write 2 2 -m rw-register -c read-committed-be "$rw/not-my-own-write.edn"
grep -q 'T2 -> T1 \[label="wr\\nT1 read key :x = 2, which T2 wrote"\];' "$tmp/nmow.dot"
grep -q 'T1 -> T1 \[label="misses\\nT1 read key :x = 2, which T2 wrote, though T1 had written key :x' "$tmp/nmow.dot"
T

test_case "not-my-last-write: the last own write missed (a loop)" <<'T'
draw nmlw not-my-last-write 1 1 -m rw-register -c read-committed-be "$rw/g1a-g1b.edn"
grep -q 'T1 -> T1 \[label="misses\\nT1 read key :y = 1, an earlier write of its own, though T1 had since' "$tmp/nmlw.dot"
T

test_case "long-fork: its cycle is drawn" <<'T'
draw lf long-fork 4 4 -m rw-register -c prefix tests/data/literature/long-fork-rw.jsonl
grep -q 'T[0-9] -> T[0-9] \[label="rw\\n' "$tmp/lf.dot"
T

test_case "rw-register's exact check: each case's cycle, the orders a case assumes marked if and named by case" <<'T'
draw ex G-single-item-realtime 4 5 -m rw-register -c strict-serializable tests/data/literature/elle-cli-47-crossed-reads.jsonl
grep -q 'T3 -> T2 \[label="if rw\\ncase 1: T3 read key \\"x\\" = 100, and T2 set it to 200, which this case' "$tmp/ex.dot"
grep -q 'T4 -> T1 \[label="if rw\\ncase 2: T4 read key \\"x\\" = 200, and T1 set it to 100, which this case' "$tmp/ex.dot"
grep -q 'T2 -> T4 \[label="wr\\nT2 wrote key \\"x\\" = 200, which was read by T4"\];' "$tmp/ex.dot"
grep -q 'T4 -> T3 \[label="realtime\\nT4 completed at index 9, before the invocation of T3, at index 10"\];' "$tmp/ex.dot"
T

test_case "list-append's exact check: both orders of two unread appends, each drawn with its case" <<'T'
draw laex G-single-item 2 2 -m list-append -c snapshot-isolation "$la/exact-unread-appends-both-orders.jsonl"
grep -q 'T1 -> T2 \[label="if ww,rw\\ncase 1: T1 appended 1 to key \\"x\\", and T2 appended 2 to it, which' "$tmp/laex.dot"
grep -q 'case 2: T2 appended 2 to key \\"x\\", and T1 appended 1 to it, which' "$tmp/laex.dot"
T

test_case "--html: the page's data holds the picture, the initial state null" <<'T'
expect_status 1 "$isolde" check -m rw-register -c read-atomic --html "$tmp/fr.html" "$rw/fractured-read.edn"
grep -q '"type":"fractured-read","n":0,.*"pic":{"v":\[0,1,null\],"e":\[\[0,1,"wr","T1 wrote key :y = 1, which was read by T2"\],\[0,2,"co",' "$tmp/fr.html"
expect_status 1 "$isolde" check -m list-append -c read-atomic --html "$tmp/la.html" "$la/fractured-read.jsonl"
grep -q '"pic":{"v":\[2,0\],"e":\[\[1,0,"wr","T1 observed T2'"'"'s append of 4 to key \\"x\\""\],\[0,1,"misses",' "$tmp/la.html"
T

finish
