#!/usr/bin/env python3
"""tests/tools/expect_cases.py ISOLDE DIR OUT -- for tests/cli/t2100: runs
`ISOLDE check --json -m list-append` on every DIR/NAME.edn with the options
of DIR/NAME.expect (format: tests/data/README) and writes, per case,
OUT/NAME.want (the .expect's status, anomaly-types and not, one per line)
and OUT/NAME.got (the same three lines from the exit status and the JSON),
plus OUT/NAME.stderr. A malformed .expect gives a .want that says why (so
the case fails naming it). One Python process for all cases: each would
otherwise pay Python's start-up."""
import json
import os
import subprocess
import sys

REQUIRED = ("models", "status", "anomaly-types", "not")
KEYS = REQUIRED + ("anomalies",)


def read_expect(path):
    """The .expect's fields, or raises ValueError saying what is wrong."""
    fields = {}
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = " ".join(line.split())
            if not line or line.startswith("#"):
                continue
            if ":" not in line:
                raise ValueError('line %d: not "key: value"' % no)
            key, value = line.split(":", 1)
            if key not in KEYS:
                raise ValueError('line %d: unknown key "%s"' % (no, key))
            if key in fields:
                raise ValueError("line %d: %s given twice" % (no, key))
            fields[key] = value.strip()
    if any(k not in fields for k in REQUIRED):
        raise ValueError("needs models:, status:, anomaly-types: and not:")
    if fields["status"] not in ("0", "1", "2"):
        raise ValueError('status must be 0, 1 or 2, not "%s"' % fields["status"])
    return fields


def main():
    isolde, cases, out = sys.argv[1:4]
    for name in sorted(os.listdir(cases)):
        if not name.endswith(".edn"):
            continue
        base = os.path.join(out, name[:-4])
        try:
            e = read_expect(os.path.join(cases, name[:-4] + ".expect"))
        except (OSError, ValueError) as err:
            with open(base + ".want", "w") as f:
                f.write("malformed or missing %s.expect: %s\n" % (name[:-4], err))
            open(base + ".got", "w").close()
            continue
        with open(base + ".want", "w") as f:
            f.write("status: %s\nanomaly-types: %s\nnot: %s\n" % (e["status"], e["anomaly-types"], e["not"]))
        args = [isolde, "check", "--json", "-m", "list-append", "-c", e["models"]]
        if "anomalies" in e:
            args += ["-a", e["anomalies"]]
        p = subprocess.run(args + [os.path.join(cases, name)], capture_output=True, text=True)
        with open(base + ".stderr", "w") as f:
            f.write(p.stderr)
        try:
            r = json.loads(p.stdout)
            got = "anomaly-types: %s\nnot: %s\n" % (" ".join(r.get("anomaly-types", [])), " ".join(r.get("not", [])))
        except ValueError:
            got = "stdout is not JSON: %r\n" % p.stdout[:200]
        with open(base + ".got", "w") as f:
            f.write("status: %d\n%s" % (p.returncode, got))


if __name__ == "__main__":
    main()
