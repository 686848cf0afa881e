#!/usr/bin/env python3
"""Conformance suite: isolde's verdicts against Elle's, over ../shared/corpus.

Runs `isolde check --json` on every list-append and rw-register run in
elle-unit-cases.jsonl, the transactional files of EXPECTED.tsv, and the
IsoCheck fixtures; compares valid?, the sorted anomaly-types and not (and
the partial anomaly payloads Elle's tests assert). Prints one line per
disagreement and a summary. Disagreements listed in
tests/conformance-deviations.tsv are deliberate (docs/DEVIATIONS.md); any
other disagreement fails, and so does a listed deviation that now agrees.
"""
import json
import re
import os
import subprocess
import sys
import tempfile

ISOLDE = os.environ.get("ISOLDE", "build/isolde")
HERE = os.path.dirname(os.path.abspath(__file__))


def shared_dir():
    for d in (os.environ.get("ISOLDE_SHARED"), os.path.join(HERE, "..", "..", "shared")):
        if d and os.path.isdir(d):
            return d
    if os.environ.get("CI") == "true":
        print("conformance: CI=true but ../shared is missing")
        sys.exit(1)
    print("conformance: ../shared not found (set ISOLDE_SHARED); skipped")
    sys.exit(77)  # skipped: tests/run-all.sh says so, never "ok"


def load_deviations():
    dev = {}
    with open(os.path.join(HERE, "conformance-deviations.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                case, reason = line.rstrip("\n").split("\t", 1)
                dev[case] = reason
    return dev


def run_isolde(path, args):
    p = subprocess.run([ISOLDE, "check", "--json"] + args + [path], capture_output=True, text=True,
                       timeout=120)
    if p.returncode == 3:
        return {"error": (p.stderr.strip() or p.stdout.strip())}, p.returncode
    try:
        return json.loads(p.stdout), p.returncode
    except json.JSONDecodeError:
        return {"error": "unparsable output: " + p.stdout[:200] + p.stderr[:200]}, p.returncode


def opts_to_args(opts, checker, tmp):
    args = ["-m", checker]
    if "consistency-models" in opts:
        args += ["-c", ",".join(opts["consistency-models"] or [])]
    if opts.get("anomalies"):
        args += ["-a", ",".join(opts["anomalies"])]
    for k, flag in (("linearizable-keys?", "--linearizable-keys"),
                    ("sequential-keys?", "--sequential-keys"), ("wfr-keys?", "--wfr-keys")):
        if opts.get(k):
            args.append(flag)
    if opts.get("transaction-order"):
        path = os.path.join(tmp, "order.json")
        with open(path, "w") as f:
            json.dump(opts["transaction-order"], f)
        args += ["--transaction-order", path]
    return args


def payload_matches(expected, found):
    """Elle's partial payload: op refs "op#N" compare with the op's index."""
    if isinstance(expected, str) and expected.startswith("op#"):
        return isinstance(found, dict) and found.get("index") == int(expected[3:])
    if isinstance(expected, dict):
        return isinstance(found, dict) and all(
            k in found and payload_matches(v, found[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(found, list) and len(found) == len(expected)
                and all(payload_matches(e, f) for e, f in zip(expected, found)))
    return expected == found


def compare(expected, got):
    """Returns a list of human-readable differences."""
    if "error" in got:
        return ["isolde rejected the history: " + got["error"]]
    diffs = []
    if expected.get("valid?") != got.get("valid?"):
        diffs.append("valid? %s, isolde %s" % (json.dumps(expected.get("valid?")), json.dumps(got.get("valid?"))))
    if "anomaly-types" in expected or got.get("anomaly-types"):
        e, g = sorted(expected.get("anomaly-types", [])), sorted(got.get("anomaly-types", []))
        if e != g:
            diffs.append("anomaly-types %s, isolde %s" % (e, g))
    if "not" in expected or got.get("not"):
        e, g = sorted(expected.get("not", [])), sorted(got.get("not", []))
        if e != g:
            diffs.append("not %s, isolde %s" % (e, g))
    for key, want in expected.items():
        if not key.startswith("anomalies."):
            continue
        found = got.get("anomalies", {}).get(key[len("anomalies."):], [])
        for w in want:
            if not any(payload_matches(w, f) for f in found):
                diffs.append("%s payload %s not among isolde's %s" % (key, json.dumps(w), json.dumps(found)[:300]))
    return diffs


def unit_cases(shared, tmp):
    with open(os.path.join(shared, "corpus/elle/elle-unit-cases.jsonl")) as f:
        for line in f:
            case = json.loads(line)
            path = os.path.join(tmp, case["id"] + ".jsonl")
            with open(path, "w") as h:
                for op in case["history"]:
                    h.write(json.dumps(op) + "\n")
            for i, run in enumerate(case["runs"]):
                name = "%s#%d" % (case["id"], i)
                got, _ = run_isolde(path, opts_to_args(run["opts"], case["checker"], tmp))
                yield name, compare(run["expected"], got)


def expected_tsv(shared):
    with open(os.path.join(shared, "corpus/elle/EXPECTED.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for row in rows:
        path, checker, options, valid = row[0], row[1], row[2], row[3]
        model = {"list-append": "list-append", "elle.list-append/check": "list-append",
                 "rw-register": "rw-register", "bank": "bank", "set": "set", "set-full": "set-full",
                 "counter": "counter", "long-fork": "long-fork"}.get(checker)
        if not model or path.startswith("(missing)"):
            continue
        args = ["-m", model]
        group = re.search(r"--group-size (\d+)", options)
        if group:
            args += ["--group-size", group.group(1)]
        if "--consistency-models serializable" in options:
            args += ["-c", "serializable"]
        if ":snapshot-isolation :repeatable-read" in options:
            args += ["-c", "snapshot-isolation,repeatable-read"]
        want = valid.split()[0]
        expected = {"valid?": {"true": True, "false": False}.get(want, want)}
        got, _ = run_isolde(os.path.join(shared, "corpus/elle", path), args)
        diffs = []
        if "error" in got:
            diffs = ["isolde rejected the history: " + got["error"]]
        elif got.get("valid?") != expected["valid?"]:
            diffs = ["valid? %s, isolde %s (types %s)" % (json.dumps(expected["valid?"]),
                                                          json.dumps(got.get("valid?")),
                                                          got.get("anomaly-types"))]
        yield path, diffs


def isocheck(shared):
    base = os.path.join(shared, "corpus/isocheck")
    with open(os.path.join(base, "EXPECTED.json")) as f:
        cases = json.load(f)["cases"]
    for name, exp in sorted(cases.items()):
        got, _ = run_isolde(os.path.join(base, name), ["-m", "list-append", "-c", "read-committed"])
        diffs = []
        if "error" in got:
            diffs.append("isolde rejected the history: " + got["error"])
        else:
            # Elle's verdict (elle-cli, read-committed) decides where it gave one;
            # IsoCheck's own expectation otherwise.
            rc = exp.get("elle_rc", "")
            valid = (True if rc == "valid" else "unknown" if rc.startswith("unknown")
                     else False if rc.startswith("invalid:") else exp["expect_valid"])
            if isinstance(valid, bool) and got.get("valid?") != valid:
                diffs.append("valid? %s, isolde %s (types %s)" % (valid, got.get("valid?"), got.get("anomaly-types")))
            if (exp.get("expect_anomaly") or "").startswith("must NOT contain"):
                banned = exp["expect_anomaly"].split()[-1]
                if banned in got.get("anomaly-types", []):
                    diffs.append("must not report " + banned)
        yield "isocheck/" + name, diffs


def main():
    shared = shared_dir()
    deviations = load_deviations()
    agree = disagree = documented = 0
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name, diffs in list(unit_cases(shared, tmp)) + list(expected_tsv(shared)) + list(isocheck(shared)):
            if diffs and name in deviations:
                documented += 1
                print("DEVIATION %s: %s [documented: %s]" % (name, "; ".join(diffs), deviations[name]))
            elif diffs:
                disagree += 1
                failed = True
                print("DISAGREE %s: %s" % (name, "; ".join(diffs)))
            elif name in deviations:
                failed = True
                print("STALE %s: agrees now, but is listed as a deviation" % name)
            else:
                agree += 1
    print("conformance: %d agree, %d documented deviations, %d disagree" % (agree, documented, disagree))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
