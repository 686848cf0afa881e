#!/usr/bin/env python3
"""tools/folder-cycles.py [BUILD] -- checks that calls go one way between the
folders of lib/ (and from src/ down): no folder includes a header of, or
calls a function defined in, a folder that depends back on it; and that
lib/ holds folders only (a source directly in lib/ is refused).

Two graphs over folders (lib/core, lib/history, ..., lib/run/drivers, src):
  includes  every #include "x/y.h" of a .c or .h file, from its folder to x/;
  calls     every symbol an object file of BUILD uses (nm -u) that another
            folder's object defines (nm --defined-only), from user to definer.
A cycle in either (a folder reaching itself through others) is printed with
the files and names that make each edge, and the exit status is 1. With no
BUILD objects present only the include graph is checked (and it says so).
Prints the folders in dependency order (each after all it uses) when clean.

Then the walls (WALLS below): no file of some folders may reach some others
through any chain of headers it includes, e.g. the shared result, the
writers and the checkers beside Elle's never reach the graph or the
transactional pipeline; a breach is printed with the chain of includes.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"


def folder_of(path):
    """The folder a source path belongs to: lib/<a>[/<b>] for nested ones, src."""
    rel = os.path.relpath(path, ROOT)
    parts = rel.split(os.sep)
    if parts[0] == "include":
        return None  # the public header belongs to no folder
    if parts[0] == "src":
        return "src"
    if parts[0] != "lib" or len(parts) < 2:
        return None
    if len(parts) == 2:
        return "lib"  # a file directly in lib/: no folder (main() refuses it)
    if len(parts) >= 4 and os.path.isdir(os.path.join(ROOT, *parts[:3])):
        return "/".join(parts[:3])
    return "/".join(parts[:2])


def sources():
    for top in ("lib", "src"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


def include_edges():
    edges = {}
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for path in sources():
        src = folder_of(path)
        text = open(path, encoding="utf-8", errors="replace").read()
        for name in inc.findall(text):
            target = None
            for base in (os.path.join(ROOT, "lib"), os.path.dirname(path)):
                cand = os.path.join(base, name)
                if os.path.exists(cand):
                    target = folder_of(cand)
                    break
            if target and target != src:
                edges.setdefault((src, target), set()).add(
                    "%s includes %s" % (os.path.relpath(path, ROOT), name))
    return edges


# (folders whose files are walled in, what they must never reach through
# any header, why). A target is a folder (every file in it) or one file.
WALLS = [
    (["lib/result", "lib/report", "lib/linear", "lib/jepsen"],
     ["lib/graph", "lib/elle", "lib/history/txn.h"],
     "the shared result, the writers and the checkers beside Elle's know no graph and no transactional pipeline"),
]


def resolve(path, name):
    for base in (os.path.join(ROOT, "lib"), os.path.dirname(path)):
        cand = os.path.join(base, name)
        if os.path.exists(cand):
            return os.path.normpath(cand)
    return None


def reached(path, inc=re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)):
    """Every file path's includes reach, each with the chain that reaches it."""
    chains, todo = {path: [path]}, [path]
    while todo:
        f = todo.pop()
        for name in inc.findall(open(f, encoding="utf-8", errors="replace").read()):
            g = resolve(f, name)
            if g and g not in chains:
                chains[g] = chains[f] + [g]
                todo.append(g)
    return chains


def walls():
    bad = 0
    for sources_in, never, why in WALLS:
        for path in sources():
            rel = os.path.relpath(path, ROOT)
            if not any(rel.startswith(d + "/") for d in sources_in):
                continue
            for g, chain in sorted(reached(path).items()):
                grel = os.path.relpath(g, ROOT)
                hit = [t for t in never if grel == t or grel.startswith(t + "/")]
                if hit:
                    bad = 1
                    print("folder-cycles: %s reaches %s (%s): %s" % (rel, hit[0], why,
                          " -> ".join(os.path.relpath(c, ROOT) for c in chain)))
                    break
    if not bad:
        print("folder-cycles: walls hold: %s never reach %s" % (
            "; ".join(", ".join(a) for a, _, _ in WALLS), "; ".join(", ".join(b) for _, b, _ in WALLS)))
    return bad


def nm(obj, *flags):
    out = subprocess.run(["nm", *flags, obj], capture_output=True, text=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()]


def call_edges():
    objs = []
    for top in ("lib", "src"):
        for d, _, files in os.walk(os.path.join(ROOT, BUILD, top)):
            for f in files:  # objects of sources that still exist
                rel = os.path.relpath(os.path.join(d, f), os.path.join(ROOT, BUILD))
                if f.endswith(".o") and os.path.exists(os.path.join(ROOT, rel[:-2] + ".c")):
                    objs.append(os.path.join(d, f))
    if not objs:
        return None
    where = {}
    for o in objs:
        src = os.path.relpath(o, os.path.join(ROOT, BUILD))[:-2] + ".c"
        for sym in nm(o, "--defined-only", "-g"):
            where[sym] = (folder_of(os.path.join(ROOT, src)), src)
    edges = {}
    for o in objs:
        src = os.path.relpath(o, os.path.join(ROOT, BUILD))[:-2] + ".c"
        me = folder_of(os.path.join(ROOT, src))
        for sym in nm(o, "-u"):
            if sym in where and where[sym][0] != me:
                edges.setdefault((me, where[sym][0]), set()).add(
                    "%s calls %s (%s)" % (src, sym, where[sym][1]))
    return edges


def knots(edges):
    """The groups of folders that reach each other (strongly connected
    components of more than one folder), each with one cycle through it."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    reach = {v: set() for v in graph}
    for v in graph:  # the folder graph is small: a search from each
        todo = list(graph[v])
        while todo:
            w = todo.pop()
            if w not in reach[v]:
                reach[v].add(w)
                todo += graph[w]
    groups, seen = [], set()
    for v in sorted(graph):
        if v in seen or v not in reach[v]:
            continue
        group = sorted(w for w in graph if v in reach[w] and w in reach[v])
        seen.update(group)
        groups.append((group, cycle_through(graph, v, set(group))))
    return groups, graph


def cycle_through(graph, v, group):
    """A shortest cycle from v back to v inside group (breadth first)."""
    prev, todo = {}, [v]
    while todo:
        nxt = []
        for a in todo:
            for b in sorted(graph[a] & group):
                if b == v:
                    path = [a]
                    while path[-1] != v:
                        path.append(prev[path[-1]])
                    return [v] + path[::-1][1:] + [v] if len(path) > 1 else [v, a, v]
                if b not in prev:
                    prev[b] = a
                    nxt.append(b)
        todo = nxt
    return [v, v]


def order(graph):
    done, out = set(), []
    while len(out) < len(graph):
        for v in sorted(graph):
            if v not in done and graph[v] <= done:
                done.add(v)
                out.append(v)
                break
    return out


def loose_files():
    """Sources directly in lib/, outside every folder: lib/ is folders only."""
    return sorted(os.path.relpath(p, ROOT) for p in sources() if folder_of(p) == "lib")


def main():
    bad = 0
    for path in loose_files():
        bad = 1
        print("folder-cycles: %s stands outside every folder of lib/ (put it in the folder of its concept)" % path)
    graphs = [("includes", include_edges())]
    calls = call_edges()
    if calls is None:
        print("folder-cycles: no objects in %s: calls not checked" % BUILD)
    else:
        graphs.append(("calls", calls))
        both = {}
        for _, edges in graphs:
            for k, v in edges.items():
                both.setdefault(k, set()).update(v)
        graphs.append(("includes and calls", both))
    for name, edges in graphs:
        groups, graph = knots(edges)
        for group, cycle in groups:
            bad = 1
            print("folder-cycles: %s cycle among %s: %s" % (name, ", ".join(group), " -> ".join(cycle)))
            for a, b in zip(cycle, cycle[1:]):
                for why in sorted(edges[(a, b)])[:4]:
                    print("    %s" % why)
        if not groups:
            print("folder-cycles: %s: no cycle among %d folders" % (name, len(graph)))
            if name == "includes":
                print("  order: " + " < ".join(order(graph)))
    return walls() or bad


if __name__ == "__main__":
    sys.exit(main())
