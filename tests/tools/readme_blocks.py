#!/usr/bin/env python3
"""tests/tools/readme_blocks.py README OUT -- for tests/cli/t9200-readme.sh:
takes README.md's fenced code blocks apart into files the test runs.

Every block says what it is by its info string:
  ```sh     commands, run as written from the checkout (a shell script of
            their own), unless the line before the block is
            <!-- t9200: not run: REASON -->
  ```text   what a command prints (not run)
  ```c      the C library example under "As a library" (built and run)
A block without an info string, or with another, is refused, so a new block
is a deliberate choice.

  OUT/example.c     the C block under "As a library" (there must be one)
  OUT/report.txt    the text block under "Checking a history" (the text
                    report; there must be one)
  OUT/blocks        one line per sh block to run: N<TAB>section<TAB>the
                    README's line number<TAB>the servers it uses (pg, mysql,
                    etcd, galera: the variables it names; - for none);
                    its commands in OUT/blockN.sh
  OUT/skipped       one line per block not run: section<TAB>line<TAB>reason

Exits 1, saying why, when a block is refused or a block the test needs is
missing or doubled.
"""
import os
import re
import sys

NOT_RUN = re.compile(r"^<!-- t9200: not run: (.+) -->$")
SERVERS = (("pg", "ISOLDE_PG_"), ("mysql", "ISOLDE_MYSQL_"), ("etcd", "ISOLDE_ETCD_"),
           ("galera", "ISOLDE_GALERA_"))


def blocks(text):
    """(section, info, first line number, lines, not-run reason) per block."""
    section, out, cur, before = "top", [], None, ""
    for n, line in enumerate(text.split("\n"), 1):
        if cur is not None:
            if line.startswith("```"):
                out.append(cur)
                cur = None
            else:
                cur[3].append(line)
            continue
        m = re.match(r"^## (.*)", line)
        if m:
            section = m.group(1).strip()
        m = re.match(r"^```(.*)$", line)
        if m:
            reason = NOT_RUN.match(before)
            cur = (section, m.group(1).strip(), n, [], reason.group(1) if reason else None)
        if line.strip():
            before = line.strip()
    if cur is not None:
        sys.exit("readme_blocks: an unclosed ``` block under %r (line %d)" % (cur[0], cur[2]))
    return out


def servers(lines):
    text = "\n".join(lines)
    used = [name for name, var in SERVERS if var in text]
    return ",".join(used) or "-"


def main():
    readme, out = sys.argv[1:3]
    with open(readme) as f:
        bs = blocks(f.read())
    refused = [b for b in bs if b[1] not in ("sh", "text", "c")]
    for section, info, line, _, _ in refused:
        print("readme_blocks: line %d (%s): a block must say sh, text or c, not %r" % (line, section, info))
    if refused:
        sys.exit(1)
    c = [b for b in bs if b[1] == "c" and b[0] == "As a library"]
    if len(c) != 1:
        sys.exit("readme_blocks: %d C blocks under 'As a library', want 1" % len(c))
    with open(os.path.join(out, "example.c"), "w") as f:
        f.write("\n".join(c[0][3]) + "\n")
    reports = [b for b in bs if b[1] == "text" and b[0] == "Checking a history"]
    if len(reports) != 1:
        sys.exit("readme_blocks: %d text blocks under 'Checking a history', want 1" % len(reports))
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write("\n".join(reports[0][3]) + "\n")
    run, skipped = [], []
    for section, info, line, lines, reason in bs:
        if info != "sh":
            continue
        if reason:
            skipped.append("%s\t%d\t%s\n" % (section, line, reason))
            continue
        n = len(run) + 1
        with open(os.path.join(out, "block%d.sh" % n), "w") as f:
            f.write("\n".join(lines) + "\n")
        run.append("%d\t%s\t%d\t%s\n" % (n, section, line, servers(lines)))
    if not run:
        sys.exit("readme_blocks: no sh block to run")
    with open(os.path.join(out, "blocks"), "w") as f:
        f.writelines(run)
    with open(os.path.join(out, "skipped"), "w") as f:
        f.writelines(skipped)


if __name__ == "__main__":
    main()
