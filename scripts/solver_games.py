#!/usr/bin/env python3
"""The solver in real games: self-play on 10x10, then when the first proof came and how it ended.

Plays `otrera match` of the engine against itself (default settings, resigning off, so every
game is played to its end), with each engine's log at info level in its own file. The engine logs
`solver: ply P COLOR to move, mixed empty E: win MOVE|loss ...` whenever the solver proves a
position during `genmove`, and `genmove COLOR: MOVE ply P ...` for every move. Then, per game:
- the ply at which the position became *decided* (no region holding amazons of both sides has an
  empty square left: a mixed region without one is as good as decided, nobody can move in it),
  by replaying the record through the engine's `regions` command;
- the ply of the first proof (either side);
- whether every proven win was won, whether every proven loss was lost, and how many moves of a
  side with a proven win (before the decided ply) were played without a proof.
Prints one line per game and the totals; docs/solver.md's "The solver in play" quotes them.

Usage: scripts/solver_games.py [--games 20] [--st 0.25] [--out DIR] [--binary PATH]
       [--engine-args '--solver-empty 40']
       [--analyze-only DIR]   (recompute from a previous run's DIR)
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from solver_threshold import positions_of  # noqa: E402

SOLVER = re.compile(r"solver: ply (\d+) (white|black) to move, mixed empty (\d+): (win \S+|loss)")
GENMOVE = re.compile(r"genmove (white|black): (\S+) ply (\d+)")


def play(args, out):
    env = dict(os.environ, RUST_LOG="info")
    engines = []
    for name in ("a", "b"):
        engines += ["--engine",
                    f"name={name} stderr={out}/{name}.log cmd='{args.binary} --resign off "
                    f"{args.engine_args}'"]
    cmd = [args.binary, "match", *engines, "--games", str(args.games), "--st", str(args.st),
           "--random-plies", "2", "--concurrency", "1", "--sgf-out", f"{out}/sgf",
           "--jsonl", f"{out}/games.jsonl"]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=open(f"{out}/match.log", "w"))


def engine_events(path):
    """The log as a list of ('solver', ply, color, verdict) and ('move', color, move)."""
    events = []
    for line in open(path):
        m = SOLVER.search(line)
        if m:
            events.append(("solver", int(m.group(1)), m.group(2), m.group(4)))
            continue
        m = GENMOVE.search(line)
        if m:
            events.append(("move", int(m.group(3)), m.group(1), m.group(2)))
    return events


def analyze(args, out):
    games = [json.loads(l) for l in open(f"{out}/games.jsonl")]
    games = [g for g in games if g.get("type") == "game"]
    games.sort(key=lambda g: g["game"])
    logs = {n: engine_events(f"{out}/{n}.log") for n in ("a", "b")}
    cursor = {"a": 0, "b": 0}
    totals = dict(games=0, with_proof=0, before_sum=0, wins_proven=0, wins_lost=0,
                  losses_proven=0, losses_won=0, unproven_moves=0, forfeits=0)
    print("| game | plies | decided at | first proof | plies before decided | proven winner |"
          " result |")
    print("|---|---|---|---|---|---|---|")
    for g in games:
        moves = g["moves"].split()
        sgf = os.path.join(out, "sgf", f"game-{g['game']:05d}.sgf")
        decided = len(positions_of(args.binary, sgf))
        proofs = []  # (ply, color, verdict)
        opening = len(g.get("opening", "").split())
        for ply in range(opening, len(moves)):
            color = "white" if ply % 2 == 0 else "black"
            name = g["white"] if color == "white" else g["black"]
            ev = logs[name]
            # Events of other plies are left over from a game that ended early (a forfeit).
            while True:
                e = ev[cursor[name]]
                cursor[name] += 1
                if e[1] != ply:
                    continue
                if e[0] == "solver":
                    proofs.append((e[1], e[2], e[3]))
                    continue
                if e[3] != moves[ply]:
                    raise SystemExit(f"game {g['game']} ply {ply}: log has {e[3]}, record "
                                     f"{moves[ply]}")
                break
        winner = g["winner_color"]
        if g["termination"] != "normal":
            totals["forfeits"] += 1
        totals["games"] += 1
        first = min((p[0] for p in proofs), default=None)
        won = [p for p in proofs if p[2].startswith("win")]
        lost = [p for p in proofs if p[2] == "loss"]
        totals["wins_proven"] += len(won)
        totals["wins_lost"] += sum(p[1] != winner for p in won)
        totals["losses_proven"] += len(lost)
        totals["losses_won"] += sum(p[1] == winner for p in lost)
        proven_side = None
        if won:
            first_win = min(won)
            proven_side = first_win[1]
            proven_plies = {p[0] for p in won}
            for ply in range(first_win[0], decided):
                side = "white" if ply % 2 == 0 else "black"
                if side == proven_side and ply not in proven_plies:
                    totals["unproven_moves"] += 1
        before = None
        if first is not None and first < decided:
            before = decided - first
            totals["with_proof"] += 1
            totals["before_sum"] += before
        print(f"| {g['game']} | {len(moves)} | {decided} | {first if first is not None else '-'}"
              f" | {before if before is not None else '-'} | {proven_side or '-'} |"
              f" {g['result']} |")
    t = totals
    avg = t["before_sum"] / t["with_proof"] if t["with_proof"] else float("nan")
    print()
    print(f"games {t['games']} ({t['forfeits']} not ended by a side without moves), with a proof before the decided ply {t['with_proof']}; "
          f"first proof on average {avg:.1f} plies before the position was decided")
    print(f"proven-win moves {t['wins_proven']}, of them in games the prover lost "
          f"{t['wins_lost']}; proven-loss moves {t['losses_proven']}, of them in games the "
          f"side won {t['losses_won']}; winner's moves after its first proof (before decided) "
          f"played without a proof {t['unproven_moves']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--st", type=float, default=0.25)
    ap.add_argument("--out")
    ap.add_argument("--binary", default="target/release/otrera")
    ap.add_argument("--analyze-only")
    ap.add_argument("--engine-args", default="", help="more options for both engines, e.g. "
                    "'--solver-empty 40'")
    args = ap.parse_args()
    if args.analyze_only:
        analyze(args, args.analyze_only)
        return
    out = args.out or tempfile.mkdtemp(prefix="solver-games-")
    os.makedirs(out, exist_ok=True)
    play(args, out)
    print(f"records and logs in {out}")
    analyze(args, out)


if __name__ == "__main__":
    main()
