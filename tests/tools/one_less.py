#!/usr/bin/env python3
"""one_less.py ISOLDE FILE ARGS...: the 1-minimality of a shrunk history,
checked from outside (tests/cli/t6500-shrink.sh). FILE's first header line
names the type it keeps ("# T: isolde shrink of ..."); each transaction (an
invocation with the next op of its process) and each lone op is left out
in turn and the rest checked with `ISOLDE check ARGS`: the check must then
lose T or find a type FILE's whole check did not. Prints the units tried
and exits 0, or names a unit that could go and exits 1."""
import os
import re
import subprocess
import sys
import tempfile


def types_of(isolde, args, path):
    """The anomaly types `isolde check` finds in path (None: an error)."""
    out = subprocess.run([isolde, "check", "--json", *args, path], capture_output=True, text=True)
    m = re.search(r'"anomaly-types":\[([^\]]*)\]', out.stdout)
    if out.returncode == 3 or not m:
        return None
    return set(re.findall(r'"([^"]+)"', m.group(1)))


def units(lines):
    """Op lines grouped as transactions: lists of line numbers."""
    proc_re = re.compile(r'"process":\s*(\d+)|:process\s+(\d+)')
    open_by, out = {}, []
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip()[0] in "#;":
            continue
        m = proc_re.search(line)
        p = m and (m.group(1) or m.group(2))
        invoke = re.search(r'"type":\s*"invoke"|:type\s+:invoke', line)
        if not invoke and p in open_by:
            out[open_by.pop(p)].append(i)
            continue
        out.append([i])
        if invoke and p is not None:
            open_by[p] = len(out) - 1
    return out


def main():
    isolde, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines = open(path).read().splitlines(keepends=True)
    m = re.search(r'^([#;]) ([^ :]+): isolde shrink of ', "".join(lines), re.M)
    kept_mark, kept = m.group(1), m.group(2)
    whole = types_of(isolde, args, path)
    if whole is None or kept not in whole:
        print(f"{path}: its own check does not find {kept}")
        return 1
    us = units(lines)
    for u in us:
        suffix = ".edn" if kept_mark == ";" else ".jsonl"
        with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
            f.writelines(l for i, l in enumerate(lines) if i not in u)
        t = types_of(isolde, args, f.name)
        os.unlink(f.name)
        if t is not None and kept in t and t <= whole:
            print(f"{path}: lines {[i + 1 for i in u]} could go and {kept} stays: not 1-minimal")
            return 1
    print(f"{path}: 1-minimal: each of its {len(us)} transactions is needed")
    return 0


sys.exit(main())
