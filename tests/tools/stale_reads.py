#!/usr/bin/env python3
"""tests/tools/stale_reads.py HISTORY NODE MS -- the reads served by NODE
("host:port") in an `isolde run -m register` history that returned a value
overwritten at least MS milliseconds before they began: the write of that
value completed, and then a write of another value was invoked and
completed ok, all MS before the read's invocation. The register's writes
are unique, so a read names the write it saw. Prints them; exit 0 when
there is one, 1 when none. Ms-lag of a follower never counts: only a
member that stopped applying (cut off) serves such a read.
"""
import json
import sys

path, node, ms = sys.argv[1], sys.argv[2], float(sys.argv[3])
open_ops = {}
writes = {}  # value -> (invoke, complete) ns of its ok write
reads = []  # (invoke, value) of ok reads on node
for line in open(path):
    op = json.loads(line)
    if not isinstance(op.get("process"), int):
        continue
    if op["type"] == "invoke":
        open_ops[op["process"]] = op
        continue
    inv = open_ops.pop(op["process"])
    if op["type"] != "ok":
        continue
    if op["f"] == "write":
        writes[op["value"]] = (inv["time"], op["time"])
    elif op["f"] == "read" and op.get("node") == node and op["value"] is not None:
        reads.append((inv["time"], op["value"]))

found = 0
for t, v in reads:
    seen = writes.get(v)
    if seen is None:
        continue
    horizon = t - ms * 1e6
    if any(w[0] > seen[1] and w[1] < horizon for x, w in writes.items() if x != v):
        found += 1
        if found <= 3:
            print(f"read of {v} at {t / 1e9:.3f} s on {node}: overwritten over {ms:g} ms before")
print(f"{found} stale reads")
sys.exit(0 if found else 1)
