#!/usr/bin/env python3
"""Time to prove a position against the empty squares of its mixed regions, on real games.

Replays every game record of a directory (SGF from `otrera match --sgf-out`) through the
engine's protocol, keeps the positions that are not decided yet and whose mixed regions (regions
still holding amazons of both sides) have at most --max-empty empty squares, samples up to
--per-bucket of them per bucket of that count, and proves each with a fresh
`otrera solve --position POS --time T --hash MB` (one thread, nothing cached). Prints, per
bucket, how many were proven within T and the median and 90th percentile time (">T" when more
than that share ran out of time). This is the measurement behind the engine's `solver_empty`
default (docs/solver.md, "The solver in play").

Usage: scripts/solver_threshold.py SGF_DIR [--time 3] [--per-bucket 8] [--bucket 5]
       [--max-empty 50] [--hash 64] [--seed 1] [--binary target/release/otrera]
"""

import argparse
import glob
import os
import random
import re
import subprocess
import sys


def positions_of(binary, sgf):
    """(ply, mixed empty squares, position string) for every position of a record before it is
    decided (before no mixed region has an empty square left); the count is the decided ply."""
    out = []
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(cmd):
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()
        lines = []
        while True:
            line = proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"engine ended during '{cmd}'")
            if line.strip() == "":
                if lines:
                    break
                continue
            lines.append(line.rstrip("\n"))
        first = lines[0]
        if first.startswith("?"):
            raise RuntimeError(f"'{cmd}': {first}")
        lines[0] = first[1:].strip()
        return lines

    ply = 0
    while True:
        try:
            ask(f"loadsgf {sgf} {ply + 1}")
        except RuntimeError:
            break
        regions = ask("regions")
        pos = ask("get_position")[0]
        mixed = 0
        for r in regions:
            m = re.match(r"(\w+) moves \S+ amazons .*? empty (\d+)", r)
            if m and m.group(1) == "mixed":
                mixed += int(m.group(2))
        # Decided: no region with amazons of both sides has an empty square left (a mixed region
        # without one is as good as decided: nobody can move in it).
        if mixed == 0:
            break
        out.append((ply, mixed, pos))
        # loadsgf past the end loads the whole record: stop once the position stops changing.
        if out and len(out) > 1 and out[-2][2] == pos:
            out.pop()
            break
        ply += 1
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return out


def solve(binary, pos, seconds, hash_mb):
    """(verdict, seconds, nodes) of a fresh solve."""
    text = subprocess.run(
        [binary, "solve", "--position", pos, "--time", str(seconds), "--hash", str(hash_mb),
         "--progress", "1000"],
        capture_output=True, text=True, check=True).stdout
    m = re.search(r"summary: (.*?) in ([\d.]+)s, (\d+) nodes", text)
    if not m:
        raise RuntimeError(f"no summary for {pos}:\n{text}")
    return m.group(1), float(m.group(2)), int(m.group(3))


def percentile(sorted_times, q, cap):
    if not sorted_times:
        return "-"
    i = min(len(sorted_times) - 1, int(q * len(sorted_times)))
    t = sorted_times[i]
    return f">{cap:g}" if t is None else f"{t:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sgf_dir")
    ap.add_argument("--time", type=float, default=3.0)
    ap.add_argument("--per-bucket", type=int, default=8)
    ap.add_argument("--bucket", type=int, default=5)
    ap.add_argument("--max-empty", type=int, default=50)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", default="target/release/otrera")
    args = ap.parse_args()

    buckets = {}
    files = sorted(glob.glob(os.path.join(args.sgf_dir, "*.sgf")))
    for f in files:
        for ply, mixed, pos in positions_of(args.binary, f):
            if mixed <= args.max_empty:
                b = (mixed - 1) // args.bucket
                buckets.setdefault(b, []).append((os.path.basename(f), ply, mixed, pos))
    rng = random.Random(args.seed)
    print(f"{len(files)} games; fresh solve per position, --time {args.time:g} --hash {args.hash}")
    print("| mixed empty | positions | proven | median s | 90th pct s | median nodes |")
    print("|---|---|---|---|---|---|")
    for b in sorted(buckets):
        sample = buckets[b]
        rng.shuffle(sample)
        sample = sample[: args.per_bucket]
        times, nodes, proven = [], [], 0
        for name, ply, mixed, pos in sample:
            verdict, secs, n = solve(args.binary, pos, args.time, args.hash)
            ok = verdict != "unknown"
            proven += ok
            times.append(secs if ok else None)
            nodes.append(n)
            print(f"  {name} ply {ply} mixed {mixed}: {verdict} {secs:.3f}s {n} nodes",
                  file=sys.stderr)
        times.sort(key=lambda t: float("inf") if t is None else t)
        nodes.sort()
        lo, hi = b * args.bucket + 1, (b + 1) * args.bucket
        print(f"| {lo}-{hi} | {len(sample)} | {proven} | {percentile(times, 0.5, args.time)} | "
              f"{percentile(times, 0.9, args.time)} | {nodes[len(nodes) // 2]} |", flush=True)


if __name__ == "__main__":
    main()
