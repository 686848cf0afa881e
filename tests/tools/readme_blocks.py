#!/usr/bin/env python3
"""tests/tools/readme_blocks.py README OUT -- for tests/cli/t9200-readme.sh:
takes README.md's fenced code blocks apart into files the test runs.

  OUT/example.c     the C block under "As a library" (there must be one)
  OUT/report.txt    the text block under "Checking a history" that is not a
                    command block (the text report; there must be one)
  OUT/commands      one line per README command under "Checking a history",
                    "Running against a database" and "Linearizability":
                    section<TAB>the line as written<TAB>the command to run,
                    with the placeholders below substituted and `isolde`
                    left as the first word (the test puts its binary there)

A command block is one whose lines all start with `isolde ` (a trailing
`# comment` is dropped). Placeholder file names become files of the
repository, the model's first (the rules are tried in order; a line may
use several; each line gets a database of its own so that lines can run at
the same time):

  -m rw-register ... history.edn  examples/rw-register.jsonl
  -m cas-register ... history.edn tests/data/readme/cas-register.edn
  -m mutex ... history.edn        tests/data/readme/mutex.edn
  -m kv ... history.jsonl         tests/data/readme/kv.jsonl
  knossos-history.edn             tests/data/readme/cas-register.edn
  etcd_007.log                    tests/fixtures/read/jepsen.log (a Jepsen log)
  c10-ok.txt                      tests/fixtures/lin/porcupine-ok.txt (Porcupine's kv shape)
  history.edn                     examples/g2-item.edn
  history.jsonl                   examples/valid.jsonl
  history.json                    examples/g1c.json
  out/                            $TMP/outN/ (N: the line's number)
  NAME.html (a word)              $TMP/NAME-N.html
  test.db                         $TMP/dbN.db

($TMP is left for the shell to expand.) A README line with a placeholder
not listed here stays as written and fails, so a new example is noticed.
Exits 1, saying why, when a block the test needs is missing or doubled.
"""
import os
import re
import sys

RUN_SECTIONS = ("Checking a history", "Running against a database", "Linearizability")

# (a model the line must name, or None; placeholder; replacement)
SUBST = [
    ("rw-register", "history.edn", "examples/rw-register.jsonl"),
    ("cas-register", "history.edn", "tests/data/readme/cas-register.edn"),
    ("mutex", "history.edn", "tests/data/readme/mutex.edn"),
    ("kv", "history.jsonl", "tests/data/readme/kv.jsonl"),
    (None, "knossos-history.edn", "tests/data/readme/cas-register.edn"),
    (None, "etcd_007.log", "tests/fixtures/read/jepsen.log"),
    (None, "c10-ok.txt", "tests/fixtures/lin/porcupine-ok.txt"),
    (None, "history.edn", "examples/g2-item.edn"),
    (None, "history.jsonl", "examples/valid.jsonl"),
    (None, "history.json", "examples/g1c.json"),
]


def blocks(text):
    """(section, info string, lines) per fenced block, in order."""
    section, out, cur = "", [], None
    for line in text.split("\n"):
        if cur is None:
            m = re.match(r"^## (.*)", line)
            if m:
                section = m.group(1).strip()
            m = re.match(r"^```(.*)$", line)
            if m:
                cur = (section, m.group(1).strip(), [])
        elif line.startswith("```"):
            out.append(cur)
            cur = None
        else:
            cur[2].append(line)
    if cur is not None:
        sys.exit("readme_blocks: an unclosed ``` block under %r" % cur[0])
    return out


def substitute(cmd, n):
    words = cmd.split()
    model = words[words.index("-m") + 1] if "-m" in words[:-1] else None
    for want, placeholder, file in SUBST:
        if want is not None and want != model:
            continue
        cmd = re.sub(r"(?<![\w./-])" + re.escape(placeholder) + r"(?![\w.-])", file, cmd)
    cmd = re.sub(r"(?<![\w./-])out/(?![\w.-])", "$TMP/out%d/" % n, cmd)
    cmd = re.sub(r"(?<![\w./-])(\w+)\.html(?![\w.-])", r"$TMP/\1-%d.html" % n, cmd)
    return re.sub(r"(?<![\w./-])test\.db(?![\w.-])", "$TMP/db%d.db" % n, cmd)


def main():
    readme, out = sys.argv[1:3]
    with open(readme) as f:
        bs = blocks(f.read())
    c = [b for b in bs if b[1] == "c" and b[0] == "As a library"]
    if len(c) != 1:
        sys.exit("readme_blocks: %d C blocks under 'As a library', want 1" % len(c))
    with open(os.path.join(out, "example.c"), "w") as f:
        f.write("\n".join(c[0][2]) + "\n")
    reports, commands = [], []
    for section, info, lines in bs:
        if section not in RUN_SECTIONS or info not in ("", "sh", "shell", "console", "text"):
            continue
        body = [l for l in lines if l.strip()]
        if body and all(l.startswith("isolde ") for l in body):
            for l in body:
                written = re.sub(r"\s+#.*$", "", l).strip()
                commands.append((section, written, substitute(written, len(commands) + 1)))
        elif section == "Checking a history":
            reports.append(lines)
    if len(reports) != 1:
        sys.exit("readme_blocks: %d text blocks under 'Checking a history', want 1" % len(reports))
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write("\n".join(reports[0]) + "\n")
    if not commands:
        sys.exit("readme_blocks: no command blocks under %s" % ", ".join(RUN_SECTIONS))
    with open(os.path.join(out, "commands"), "w") as f:
        for row in commands:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
