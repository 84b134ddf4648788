#!/usr/bin/env bash
# Otrera against itself: two instances of the random player at a tiny time control, with
# records. Replace the --player/--seed options to compare other settings or builds.
# Usage: [GAMES=20] [TC=5+0.05] scripts/match_selfplay.sh [more otrera match options]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp -d)
target/release/otrera match \
    --engine "name=random-1 cmd='target/release/otrera --player random --seed 1'" \
    --engine "name=random-2 cmd='target/release/otrera --player random --seed 2'" \
    --games "${GAMES:-20}" --tc "${TC:-5+0.05}" --random-plies 2 --concurrency 2 \
    --sgf-out "$out/sgf" --jsonl "$out/games.jsonl" "$@"
echo "records in $out/sgf, JSON lines in $out/games.jsonl"
