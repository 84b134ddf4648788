#!/usr/bin/env bash
# One generation of the learning loop: self-play -> train -> gating match against a baseline.
# The defaults are the numbers of the first generation in docs/training.md.
# Usage: BASE=/path/to/baseline/otrera [GAMES=200] [SHARDS=2] [PLAYOUTS=3000] [START=builtin]
#        [MATCH_GAMES=400] [ST=0.25] scripts/learn_loop.sh [run directory]
# The baseline of issue 9 is main at 9d483dc (Bench: 1051717):
#   git worktree add /tmp/base 9d483dc && (cd /tmp/base && cargo build --release)
#   BASE=/tmp/base/target/release/otrera scripts/learn_loop.sh
# It rewrites src/learn/weights.txt; commit it only if the match says it pays.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BASE:?set BASE to the baseline binary}"
run=${1:-learn-run}
games=${GAMES:-200}
shards=${SHARDS:-2}
start=${START:-builtin}
mkdir -p "$run"
cargo build --release --quiet
cp target/release/otrera "$run/generator"
# Self-play: one process per shard (on a cluster, one array task each; see docs/training.md).
for ((i = 0; i < shards; i++)); do
    nice -n 10 "$run/generator" selfplay --out "$run/selfplay-$i.osp" --resume --games "$games" \
        --playouts "${PLAYOUTS:-3000}" --random-plies 4 --temperature-plies 8 --seed 1 \
        --shard "$i/$shards" --weights "$start" 2>"$run/selfplay-$i.log" &
done
wait
nice -n 10 "$run/generator" train "$run"/selfplay-*.osp --start "$start" --seed 1 \
    --out src/learn/weights.txt
cargo build --release --quiet
cp target/release/otrera "$run/candidate"
nice -n 10 "$run/candidate" match \
    --engine "name=learned cmd='$run/candidate --weights learned --threads 1'" \
    --engine "name=base cmd='$BASE --threads 1'" \
    --games "${MATCH_GAMES:-400}" --st "${ST:-0.25}" --random-plies 4 --seed 7 --concurrency 1 \
    --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05 --jsonl "$run/match.jsonl"
