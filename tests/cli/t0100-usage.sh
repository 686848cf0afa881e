#!/bin/sh
# Usage errors of `isolde check` and `isolde run` (backend-independent):
# each exits 3, the status of an error, never a verdict.
. tests/clilib.sh "$@"

test_case "check without a history is a usage error" <<'T'
expect_status 3 "$isolde" check
T

test_case "unknown model is a usage error naming the model" <<'T'
expect_status 3 "$isolde" check -c no-such-model examples/valid.jsonl
expect_err "unknown consistency model 'no-such-model'"
T

test_case "check: an unknown option is a usage error" <<'T'
expect_status 3 "$isolde" check --bogus examples/valid.jsonl
T

test_case "check: a history file that does not exist is an error" <<'T'
expect_status 3 "$isolde" check "$tmp/does-not-exist.edn"
T

test_case "check: a cycle-search timeout that is not a number is a usage error" <<'T'
expect_status 3 "$isolde" check -s abc examples/valid.jsonl
T

test_case "run without a backend is a usage error" <<'T'
expect_status 3 "$isolde" run
T

test_case "run: an unknown backend is a usage error" <<'T'
expect_status 3 "$isolde" run nosuchdb
T

test_case "run sim: an unknown isolation level is a usage error" <<'T'
expect_status 3 "$isolde" run sim -i chaos
T

test_case "run sim: a negative -n is a usage error" <<'T'
expect_status 3 "$isolde" run sim -n -5
T

test_case "run sim: a read ratio above 1 is a usage error" <<'T'
expect_status 3 "$isolde" run sim --read-ratio 2
T

test_case "run sim: an unknown option is a usage error" <<'T'
expect_status 3 "$isolde" run sim --bogus
T

test_case "check: an unknown model fails before any file is read, naming the closest" <<'T'
expect_status 3 "$isolde" check -c serializabel /nonexistent/history.edn
expect_err "unknown consistency model 'serializabel' (did you mean serializable?)"
expect_err "isolde models lists"
not grep -q nonexistent "$tmp/err"
T

test_case "check: an unknown anomaly fails before any file is read, naming the closest" <<'T'
expect_status 3 "$isolde" check -c '' -a G2-itme /nonexistent/history.edn
expect_err "unknown anomaly 'G2-itme' (did you mean G2-item?)"
T

test_case "check: a name nothing is close to gets no suggestion" <<'T'
expect_status 3 "$isolde" check -c wibble examples/valid.jsonl
expect_err "unknown consistency model 'wibble'$"
T

test_case "run sim: an unknown model fails before the run starts" <<'T'
expect_status 3 "$isolde" run sim -c strict-serialisable -o "$tmp/never.jsonl"
expect_err "did you mean strict-serializable?"
not test -e "$tmp/never.jsonl"
T

test_case "models lists all 55 model names (Elle's and read-committed-be) and every anomaly name" <<'T'
expect_status 0 "$isolde" models
expect_out "^consistency models .*: 55 names for 37 models$"
test "$(sed -n '2,38p' "$tmp/out" | tr -s ' ,' '\n\n' | grep -c .)" = 55
expect_out "^  PL-3  *conflict-serializable, serializable$"
sed -n '/^anomalies/,$p' "$tmp/out" | grep -qw G-single-item-realtime
sed -n '/^anomalies/,$p' "$tmp/out" | grep -qw garbage-read
T

test_case "models NAME: what -c NAME or -a NAME reports" <<'T'
expect_status 0 "$isolde" models read-committed G1
expect_out "^read-committed (PL-2): a check with -c read-committed reports$"
expect_out "^    list-append: sound only; rw-register: sound only$"
sed -n '3p' "$tmp/out" | grep -qw G1c
not grep -qw G2-item "$tmp/out"
expect_out "^G1 (an anomaly): a check with -c '' -a G1 reports$"
T

test_case "models NAME: complete, sound only or not applicable per workload (issue 25)" <<'T'
# prefix: complete on rw-register with CaDiCaL (the exact check), else sound only; repeatable-read:
# sound only on both
expect_status 0 "$isolde" models read-atomic causal prefix repeatable-read PRAM
expect_out "^read-atomic (read-atomic): a check with -c read-atomic reports$"
test "$(grep -c '^    list-append: complete; rw-register: complete$' "$tmp/out")" -ge 2
grep -Eq '^    list-append: complete; rw-register: (complete|sound only)$' "$tmp/out"
expect_out '^    list-append: sound only; rw-register: sound only$'
expect_out "^    list-append: not applicable; rw-register: not applicable$"
grep -qw causality-violation "$tmp/out"
T

test_case "models NAME of a model that forbids nothing: says so and what to use instead (issue 23)" <<'T'
expect_status 0 "$isolde" models sequential
expect_out "^sequential (sequential): a check with -c sequential reports$"
expect_out "^    nothing: isolde does not check sequential on transactional histories, so a$"
grep -q 'cas-register' "$tmp/out"
test "$(wc -l <"$tmp/out")" -gt 2
expect_status 0 "$isolde" models
expect_out "^    These isolde does not check on transactional histories (isolde models NAME$"
T

test_case "models: an unknown name is an error with the closest of each kind" <<'T'
expect_status 3 "$isolde" models repeatable-reed
expect_err "did you mean repeatable-read?"
T

test_case "-V and --version print the version, before a command and after one" <<'T'
for args in -V --version "check --version" "check -V" "run --version" "run sim --version" "repair --version" "models --version" \
            "scenario -V" "scenario lost-update sim --version" "campaign -V" "campaign sim --version"; do
    expect_status 0 "$isolde" $args
    expect_out '^isolde [0-9][0-9.]*$'
done
T

test_case "--version's features line names the optional libraries built in (cadical: the SAT solver)" <<'T'
expect_status 0 "$isolde" --version
expect_out '^features: '
for f in zlib sqlite libpq mariadb gvc curl cadical; do
    if have_feature "$f"; then expect_out "^features:.* $f\b"; else ! grep -q "^features:.* $f\b" "$tmp/out"; fi
done
T

test_case "isolde help check is check's help; isolde help nosuch is an error" <<'T'
expect_status 0 "$isolde" help check
expect_out '^usage: isolde check'
expect_out -- '--max-examples'
expect_status 0 "$isolde" help run
expect_out '^usage: isolde run'
expect_status 3 "$isolde" help nosuch
T

# Help fits a 100-column terminal: every line of every command's --help,
# of each backend's (isolde run BACKEND --help) and of isolde --help; an
# option whose name overflows its column has its words on the next line.
test_case "no --help line of any command or backend is wider than 100 columns" <<'T'
"$isolde" --help >"$tmp/help"
for c in check run scenario campaign models repair proxy serve; do "$isolde" $c --help >>"$tmp/help"; done
for b in sim sqlite exec postgres mysql etcd; do "$isolde" run $b --help >>"$tmp/help" 2>&1 || true; done
test "$(wc -l <"$tmp/help")" -gt 500
awk 'length > 100 { print "line " NR " is " length " columns: " $0; bad = 1 } END { exit bad }' "$tmp/help"
T

test_case "an item name wider than its column has its words on the next line, aligned" <<'T'
expect_status 0 "$isolde" --help
expect_out '^  scenario NAME BACKEND \[options\]$'
expect_out '^                                 run a classic interleaving at each level, check it$'
T

# A misspelt name gets the closest known one (lib/core/names.c's
# isolde_closest_name): workloads, backends, scenarios, commands, options.
test_case "a misspelt workload, backend, scenario, command or option: did you mean ...?" <<'T'
expect_status 3 "$isolde" check -m list-apend examples/valid.jsonl
expect_err "^isolde: unknown workload 'list-apend' (did you mean list-append?)$"
expect_status 3 "$isolde" run sim -m list-apend
expect_err "^isolde: unknown workload 'list-apend' (did you mean list-append?)$"
expect_status 3 "$isolde" check -m nothing-like-it examples/valid.jsonl
expect_err "^isolde: unknown workload 'nothing-like-it' (one of list-append, rw-register, register,"
expect_status 3 "$isolde" run exce
expect_err "^isolde: unknown backend 'exce' (did you mean exec?)$"
expect_status 3 "$isolde" scenario write-skw exec
expect_err "^isolde scenario: unknown scenario 'write-skw' (did you mean write-skew?)$"
expect_status 3 "$isolde" campaign exce
expect_err "^isolde campaign: unknown backend 'exce' (did you mean exec?)$"
expect_status 3 "$isolde" chek examples/valid.jsonl
expect_err "^isolde: unknown command 'chek' (did you mean check?)$"
expect_status 3 "$isolde" check --jsn examples/valid.jsonl
expect_err "^isolde check: unknown option '--jsn' (did you mean --json?)$"
T

test_case "run postgre: did you mean postgres? (when built with libpq)" <<'T'
"$isolde" run --help >"$tmp/help"
if grep -q '^postgres:' "$tmp/help"; then expect_status 3 "$isolde" run postgre; expect_err "unknown backend 'postgre' (did you mean postgres?)$"; fi

# /dev/full takes nothing: a write error on stdout must not pass for success.
full() { # ARGS...: `isolde ARGS >/dev/full` exits 3 and says why
    rc=0
    "$isolde" "$@" >/dev/full 2>"$tmp/full.err" || rc=$?
    if [ "$rc" != 3 ]; then echo "isolde $*: exit $rc on /dev/full"; return 1; fi
    grep -q 'No space left on device' "$tmp/full.err" || { echo "isolde $*: says not why"; cat "$tmp/full.err"; return 1; }
}

test_case "a full disk on stdout: every command that writes there exits 3, saying why" <<'T'
test -w /dev/full
expect_status 3 sh -c '"$1" check examples/valid.jsonl >/dev/full' sh "$isolde"
expect_err '^isolde: cannot write the report: No space left on device$'
full check examples/valid.jsonl
full check --json examples/valid.jsonl
full check --json examples/valid.jsonl examples/g1c.json
full check examples/valid.jsonl examples/g1c.json
full models
full models G1c
full --help
full --version
full --man
full help check
full check --help
full run sim -n 20 -o "$tmp/r.jsonl"
full run sim -n 20 --json -o "$tmp/r.jsonl"
cp examples/valid.jsonl "$tmp/v.jsonl"
full repair "$tmp/v.jsonl"
expect_status 3 sh -c '"$1" repair "$2" >/dev/full' sh "$isolde" "$tmp/v.jsonl"
expect_err '^isolde: cannot write standard output: No space left on device$'
T

test_case "an option whose value's help starts with [ takes its value (proxy --link [FROM>TO@]L=T); only [=V] is an optional value (check --exact[=WHEN])" <<'T'
expect_status 3 "$isolde" proxy --link 127.0.0.1:0
expect_err 'not a link'
expect_status 3 "$isolde" check --exact=sometimes tests/data/rw_register/serial.edn
expect_status 0 "$isolde" check --exact tests/data/rw_register/serial.edn
T

finish
