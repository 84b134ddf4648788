#!/usr/bin/env python3
"""Prints the import graph of the crate's modules and fails if it has a cycle, at two levels.

Files: each file under src/ is a node (src/a/mod.rs and src/a.rs are module `a`). An edge A -> B
means A names an item of B: a `use crate::...`/`use super::...` line (`super::{x, y}` too) or an
inline `crate::x::y` path, test modules included. A path to a re-export in a folder's mod.rs
counts as an edge to that mod.rs, which is conservative.

Folders: each top-level module (`mcts`, `solver`, `player`, ...) is a node, with an edge A -> B
when a file of A names an item of B. No loop here means the folders form layers: a library
below never reaches up into one above (e.g. `solver` into `settings` or `mcts`).

Also checks the floors the design states: `clap` only in src/cli/ and src/main.rs, and the
player contract (`player`) naming no module above it.
Usage: scripts/module_cycles.py [--graph | --folders]
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")


def modules():
    """Maps module paths ('mcts::search') to files."""
    out = {}
    for dirpath, _, files in os.walk(ROOT):
        for f in files:
            if not f.endswith(".rs") or f in ("main.rs", "lib.rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), ROOT)[:-3].split(os.sep)
            if rel[-1] == "mod":
                rel = rel[:-1]
            out["::".join(rel)] = os.path.join(dirpath, f)
    return out


def resolve(path, mods):
    """The longest prefix of `path` (a list of names) that is a module."""
    for n in range(len(path), 0, -1):
        name = "::".join(path[:n])
        if name in mods:
            return name
    return None


def edges(name, file, mods):
    text = open(file).read()
    text = re.sub(r"//[^\n]*", "", text)
    # Expand `use a::{b, c::d}` one level, enough for this crate's style.
    targets = set()
    for m in re.finditer(r"\b(crate|super)((?:::\w+)*)(::\{([^}]*)\})?", text):
        base = m.group(1)
        parts = [p for p in m.group(2).split("::") if p]
        if not parts and not m.group(4):
            continue  # `super::*` in a test module: the file's own items
        prefix = name.split("::")
        is_dir = file.endswith("mod.rs")
        if base == "crate":
            root = []
        else:
            # `super` of a folder's mod.rs is the folder's parent; of a.rs or a/b.rs, the folder.
            root = prefix[:-1] if not is_dir else prefix[:-1]
        heads = [parts]
        if m.group(4):
            heads = [parts + [p.strip().split("::")[0]] for p in m.group(4).split(",") if p.strip()]
        for h in heads:
            t = resolve(root + h, mods)
            if t and t != name:
                targets.add(t)
    # Plain `use child::x` from a folder's mod.rs to its own submodule.
    if file.endswith("mod.rs"):
        for m in re.finditer(r"^\s*(?:pub\s+)?use\s+(\w+)::", text, re.M):
            t = resolve(name.split("::") + [m.group(1)], mods)
            if t and t != name:
                targets.add(t)
    return targets


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, sccs = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sccs


def folders(graph):
    """The graph of top-level modules: a file's edges count for its first path component."""
    out = {}
    for n, targets in graph.items():
        top = n.split("::")[0]
        out.setdefault(top, set())
        for t in targets:
            if t.split("::")[0] != top:
                out[top].add(t.split("::")[0])
    return out


# The one top-level module that may use clap, besides main.rs.
CLAP_FLOOR = "cli"
# Modules the player contract may name: the rules core and the game record below it.
PLAYER_MAY_USE = {"game", "mv", "position", "proof", "square", "bitboard", "color"}


def floor_errors(mods, graph):
    errors = []
    for name, file in sorted(mods.items()):
        text = re.sub(r"//[^\n]*", "", open(file).read())
        if name.split("::")[0] != CLAP_FLOOR and re.search(r"\bclap\b", text):
            errors.append(f"{os.path.relpath(file, ROOT)} uses clap outside src/cli/")
    above = graph.get("player", set()) - PLAYER_MAY_USE
    if above:
        errors.append("player (the player contract) names " + ", ".join(sorted(above)))
    return errors


def main():
    mods = modules()
    graph = {n: edges(n, f, mods) for n, f in mods.items()}
    tops = folders(graph)
    if "--graph" in sys.argv:
        for n in sorted(graph):
            print(f"{n} -> {', '.join(sorted(graph[n]))}")
    if "--folders" in sys.argv:
        for n in sorted(tops):
            print(f"{n} -> {', '.join(sorted(tops[n]))}")
    failed = False
    for level, g in (("file", graph), ("folder", tops)):
        found = cycles(g)
        for c in found:
            print(f"{level} cycle among: " + ", ".join(c))
        n_edges = sum(len(t) for t in g.values())
        if found:
            failed = True
        else:
            print(f"{level}s: {len(g)} modules, {n_edges} import edges, no cycle")
    for e in floor_errors(mods, graph):
        print(e)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
