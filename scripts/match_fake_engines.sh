#!/usr/bin/env bash
# A short match between two copies of the test engine fake_engine
# (tests/fixtures/fake_engine.rs: random moves), with SGF records and JSON lines in a temporary
# directory. Shows the runner working without a real engine.
# Usage: [GAMES=20] [TC=10+0.1] scripts/match_fake_engines.sh [more otrera match options]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin otrera --example fake_engine
out=$(mktemp -d)
target/release/otrera match \
    --engine "name=random-1 cmd='target/release/examples/fake_engine --seed 1'" \
    --engine "name=random-2 cmd='target/release/examples/fake_engine --seed 2'" \
    --games "${GAMES:-20}" --tc "${TC:-10+0.1}" --random-plies 4 --concurrency 2 \
    --sgf-out "$out/sgf" --jsonl "$out/games.jsonl" "$@"
echo "records in $out/sgf, JSON lines in $out/games.jsonl"
