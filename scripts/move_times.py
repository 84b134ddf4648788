#!/usr/bin/env python3
"""Times every genmove of self-play games as a controller sees it (from writing the command to
reading the answer), under a GTP time control, and reports the slowest.

Usage: scripts/move_times.py [--games N] [--time-settings "0 1 1"] [--limit SECONDS] -- ENGINE [FLAGS...]
Example: scripts/move_times.py --games 2 -- target/release/otrera --threads 2

Exits 1 if any move took longer than --limit (default: the per-move time, the BYO of
"0 BYO 1"), or if the engine answered anything but a move or resign.
"""
import argparse
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--time-settings", default="0 1 1")
    ap.add_argument("--limit", type=float, default=None)
    ap.add_argument("engine", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    engine = [x for x in a.engine if x != "--"]
    if not engine:
        ap.error("give the engine command after --")
    main_t, byo, stones = (float(x) for x in a.time_settings.split())
    limit = a.limit if a.limit is not None else (byo if stones == 1 and main_t == 0 else None)
    if limit is None:
        ap.error("give --limit for this time control")
    p = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(cmd):
        p.stdin.write(cmd + "\n")
        p.stdin.flush()
        lines = []
        while True:
            line = p.stdout.readline()
            if line == "":
                sys.exit("engine exited during: " + cmd)
            line = line.rstrip("\n")
            if line == "":
                return "\n".join(lines)
            lines.append(line)

    times = []
    bad = 0
    for g in range(a.games):
        ask("clear_board")
        ask("time_settings " + a.time_settings)
        side = "w"
        first = len(times)
        while True:
            t0 = time.monotonic()
            r = ask("genmove " + side)
            dt = time.monotonic() - t0
            times.append(dt)
            if not r.startswith("= "):
                print("bad answer to genmove %s: %r" % (side, r))
                bad += 1
                break
            if r == "= resign":
                break
            side = "b" if side == "w" else "w"
        game = times[first:]
        print("game %d: %d moves, slowest %.3f s" % (g + 1, len(game), max(game)))
    ask("quit")
    over = [t for t in times if t > limit]
    times.sort()
    print("moves %d, mean %.3f s, median %.3f s, max %.3f s, over %.3f s: %d"
          % (len(times), sum(times) / len(times), times[len(times) // 2], times[-1], limit, len(over)))
    sys.exit(1 if over or bad else 0)


if __name__ == "__main__":
    main()
