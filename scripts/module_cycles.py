#!/usr/bin/env python3
"""Prints the import graph between the crate's source files and fails if it has a cycle.

Each file under src/ is a node (src/a/mod.rs and src/a.rs are module `a`). An edge A -> B means
A names an item of B: a `use crate::...`/`use super::...` line or an inline `crate::x::y` path,
test modules included. A path to a re-export in a folder's mod.rs counts as an edge to that
mod.rs, which is conservative. Usage: scripts/module_cycles.py [--graph]
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
    for m in re.finditer(r"\b(crate|super)((?:::\w+)+)(::\{([^}]*)\})?", text):
        base = m.group(1)
        parts = [p for p in m.group(2).split("::") if p]
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


def main():
    mods = modules()
    graph = {n: edges(n, f, mods) for n, f in mods.items()}
    if "--graph" in sys.argv:
        for n in sorted(graph):
            print(f"{n} -> {', '.join(sorted(graph[n]))}")
    # Tarjan's strongly connected components.
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
    n_edges = sum(len(t) for t in graph.values())
    if sccs:
        for c in sccs:
            print("cycle among: " + ", ".join(c))
        return 1
    print(f"{len(graph)} modules, {n_edges} import edges, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
