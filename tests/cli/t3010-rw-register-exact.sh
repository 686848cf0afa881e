#!/bin/sh
# The exact check of rw-register (issue 26 item 1; lib/elle/rw_register/
# exact.c): --exact[=auto|always|never] and --no-exact, and what each
# verdict says on elle-cli issue 47's history (tests/data/literature/
# elle-cli-47-crossed-reads.jsonl), where Elle's inference leaves the two
# writes of x unordered: strict-serializable invalid with the two-case
# proof, serializable valid with a witness (--json, -d DIR/witness.json)
# that --transaction-order re-checks; without the solver (--no-exact),
# Elle's valid, sound only.
. tests/clilib.sh "$@"
h=tests/data/literature/elle-cli-47-crossed-reads.jsonl

test_case "strict-serializable: invalid, whichever order the two writes took" <<'T'
expect_status 1 "$isolde" check -m rw-register -c strict-serializable "$h"
expect_out 'whichever order T1 and T2 wrote key "x" in, a cycle follows'
expect_out "if T1's write of key \"x\" (100) came before T2's (G-single-item-realtime)"
expect_out "if T2's write of key \"x\" (200) came before T1's (G-single-item-realtime)"
expect_out 'a contradiction!'
T

test_case "--exact and --exact=auto: the same verdict; --exact=always too" <<'T'
expect_status 1 "$isolde" check -m rw-register -c strict-serializable --exact "$h"
expect_status 1 "$isolde" check -m rw-register -c strict-serializable --exact=auto "$h"
expect_status 1 "$isolde" check -m rw-register -c strict-serializable --exact=always "$h"
T

test_case "--no-exact and --exact=never: Elle's valid, said to be sound only" <<'T'
expect_status 0 "$isolde" check -m rw-register -c strict-serializable --no-exact "$h"
expect_out 'sound only: strict-serializable'
expect_status 0 "$isolde" check -m rw-register -c strict-serializable --exact=never --json "$h"
expect_out '"models-sound-only":\["strict-serializable"\]'
T

test_case "a bad --exact value is refused before anything is read" <<'T'
expect_status 3 "$isolde" check -m rw-register --exact=sometimes "$h"
expect_err '--exact takes auto, always or never'
expect_status 3 "$isolde" check -m rw-register --no-exact=1 "$h"
T

test_case "serializable: valid; exactly with CaDiCaL, else sound only (never an unsaid valid)" <<'T'
expect_status 0 "$isolde" check -m rw-register -c serializable "$h"
if have_feature cadical; then not grep -q 'sound only' "$tmp/out"; else expect_out 'sound only: serializable'; fi
T

# A valid verdict needs the solver (pruning alone leaves serializable's pair
# open): without CaDiCaL it stays Elle's, sound only.
needs_feature cadical
test_case "serializable: valid, exactly (not sound only), with its witness in --json" <<'T'
expect_status 0 "$isolde" check -m rw-register -c serializable --json "$h"
not grep -q models-sound-only "$tmp/out"
expect_out '"exact-witness":{"model":"serializable","version-order":\[{"key":"x","values":\[100,200\]}\]'
expect_out '"transaction-order":{'
expect_status 0 "$isolde" check -m rw-register -c serializable "$h"
expect_out '^witness: the exact check found a version order per key that allows it'
T

test_case "-d DIR: witness.json and transaction-order.json, which --transaction-order re-checks" <<'T'
expect_status 0 "$isolde" check -m rw-register -c serializable -d "$tmp/d" "$h"
grep -q '"version-order":\[{"key":"x","values":\[100,200\]}\]' "$tmp/d/witness.json"
expect_status 0 "$isolde" check -m rw-register -c serializable --no-exact --transaction-order "$tmp/d/transaction-order.json" --json "$h"
expect_out '"valid?":true'
T

test_case "the witness orders every write: no pair is left for the solver" <<'T'
"$isolde" check -m rw-register -c serializable -d "$tmp/w" "$h" >/dev/null
expect_status 0 "$isolde" check -m rw-register -c serializable --transaction-order "$tmp/w/transaction-order.json" --json "$h"
not grep -q exact-witness "$tmp/out"
not grep -q models-sound-only "$tmp/out"
T

needs_feature

# 1500 concurrent writers of one key (and a read of one of them): 1124250
# unordered pairs, past the 2^20 the solver is given: unknown, naming the
# key, never valid.
test_case "more unordered pairs than the solver is given: unknown, the key named" <<'T'
awk 'BEGIN { for (i = 0; i < 1500; i++) printf "{\"index\":%d,\"type\":\"invoke\",\"process\":%d,\"f\":\"txn\",\"value\":[[\"w\",\"x\",%d]]}\n", i, i, i
             for (i = 0; i < 1500; i++) printf "{\"index\":%d,\"type\":\"ok\",\"process\":%d,\"f\":\"txn\",\"value\":[[\"w\",\"x\",%d]]}\n", 1500 + i, i, i
             print "{\"index\":3000,\"type\":\"ok\",\"process\":1500,\"f\":\"txn\",\"value\":[[\"r\",\"x\",0]]}" }' >"$tmp/wide.jsonl"
expect_status 2 "$isolde" check -m rw-register -c serializable "$tmp/wide.jsonl"
expect_out 'anomaly-types: cycle-search-timeout'
expect_out 'pass the 1048576 the solver is given, counted key by key up to key "x"'
expect_status 0 "$isolde" check -m rw-register -c serializable --no-exact "$tmp/wide.jsonl"
T

test_case "isolde models: serializable complete on rw-register through the exact check, and what that needs" <<'T'
"$isolde" models serializable >"$tmp/out"
if have_feature cadical; then
    expect_out 'rw-register: complete$'
    expect_out '^    rw-register is complete through the exact check'
    expect_out 'makes the verdict unknown, never$'
else
    expect_out 'rw-register: sound only$'
    expect_out '^    rw-register is sound only in this build: complete needs the cadical$'
fi
"$isolde" models causal >"$tmp/out"
not grep -q 'exact check' "$tmp/out"
T

finish
