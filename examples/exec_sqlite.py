#!/usr/bin/env python3
"""exec_sqlite.py -- a complete `isolde run exec` client for SQLite, using
only the Python standard library.

    isolde run exec --url "python3 examples/exec_sqlite.py test.db" -c serializable

isolde starts one copy per client and writes one JSON line per transaction
to its stdin, {"id": 0, "value": [["append", 3, 7], ["r", 4, null]]}; this
program runs it as one SQLite transaction and answers with one line:
{"type": "ok", "value": [...reads filled in...]}, {"type": "fail", ...}
when it certainly did not commit, or {"type": "info", ...} when the outcome
is unknown, echoing the request's "id" (see docs/FORMATS.md, the line
protocol).

Lists are stored as text "1,2,3" and an append is one upsert that
concatenates onto the stored list; registers are plain integer rows, and
an add (Jepsen's bank and counter) reads one and writes the sum, failing
the transaction when the sum would go below 0. The
first client of a run (isolde sets ISOLDE_RUN_ID) resets the tables, so a
database file can be reused across runs.
"""
import json
import os
import sqlite3
import sys
import time

BEGIN = os.environ.get("ISOLDE_SQLITE_BEGIN", "BEGIN IMMEDIATE")


def connect(path):
    db = sqlite3.connect(path, timeout=10.0, isolation_level=None)
    # Switching to WAL takes the file alone and does not wait out the busy
    # timeout: clients starting together wait for each other here.
    for attempt in range(200):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError:
            if attempt == 199:
                raise
            time.sleep(0.05)
    db.execute("PRAGMA synchronous=NORMAL")
    reset(db)
    return db


def reset(db):
    run = os.environ.get("ISOLDE_RUN_ID", "")
    db.execute("BEGIN IMMEDIATE")
    db.execute("CREATE TABLE IF NOT EXISTS isolde_meta (run TEXT)")
    row = db.execute("SELECT run FROM isolde_meta").fetchone()
    if row is None or row[0] != run:
        db.execute("DROP TABLE IF EXISTS isolde_la")
        db.execute("DROP TABLE IF EXISTS isolde_rw")
        db.execute("CREATE TABLE isolde_la (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        db.execute("CREATE TABLE isolde_rw (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
        db.execute("DELETE FROM isolde_meta")
        db.execute("INSERT INTO isolde_meta (run) VALUES (?)", (run,))
    db.execute("COMMIT")


class Refused(Exception):
    """A transaction the client rolls back itself (a bank's overdraft)."""


def write(db, k, v):
    db.execute("INSERT INTO isolde_rw (k, v) VALUES (?, ?) ON CONFLICT(k) "
               "DO UPDATE SET v = excluded.v", (k, v))


def micro_op(db, f, k, v):
    if f == "r":
        row = db.execute("SELECT v FROM isolde_la WHERE k = ?", (k,)).fetchone()
        if row is not None:
            return [f, k, [int(x) for x in row[0].split(",")]]
        row = db.execute("SELECT v FROM isolde_rw WHERE k = ?", (k,)).fetchone()
        return [f, k, None if row is None else row[0]]
    if f == "append":
        db.execute("INSERT INTO isolde_la (k, v) VALUES (?, ?) ON CONFLICT(k) "
                   "DO UPDATE SET v = v || ',' || excluded.v", (k, str(v)))
    elif f == "w":
        write(db, k, v)
    elif f == "add":  # bank, counter: read the integer, write the sum
        row = db.execute("SELECT v FROM isolde_rw WHERE k = ?", (k,)).fetchone()
        total = (0 if row is None else row[0]) + v
        if total < 0:
            raise Refused("add %d to key %d: it would go below 0" % (v, k))
        write(db, k, total)
    else:
        raise ValueError("unknown micro-op %r" % f)
    return [f, k, v]


def transaction(db, mops):
    try:
        db.execute(BEGIN)
        out = [micro_op(db, f, k, v) for f, k, v in mops]
    except (sqlite3.Error, Refused) as e:
        if db.in_transaction:
            db.execute("ROLLBACK")
        return {"type": "fail", "error": str(e)}
    try:
        db.execute("COMMIT")
    except sqlite3.Error as e:
        if db.in_transaction:  # busy: still open, so certainly not committed
            db.execute("ROLLBACK")
            return {"type": "fail", "error": str(e)}
        return {"type": "info", "error": "commit: %s" % e}
    return {"type": "ok", "value": out}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "isolde-exec.db"
    db = connect(path)
    for line in sys.stdin:
        try:
            request = json.loads(line)
            mops = request["value"]
        except (ValueError, KeyError, TypeError) as e:
            reply = {"type": "info", "error": "bad request: %s" % e}
        else:
            reply = transaction(db, mops)
            if "id" in request:
                reply["id"] = request["id"]
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
