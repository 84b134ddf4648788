#!/usr/bin/env bash
# Shows how the runner reports a misbehaving engine: the fake engine plays an illegal move, crashes,
# hangs or overruns its time, against a well-behaved copy. Each match is two games.
# Usage: scripts/match_forfeits.sh [illegal|garbage|noise|crash|hang|slow|refuse|resign|reject-play ...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin otrera --example fake_engine
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(illegal garbage crash hang slow)
for kind in "${kinds[@]}"; do
    echo "== $kind"
    target/release/otrera match \
        --engine "name=$kind cmd='target/release/examples/fake_engine --misbehave $kind --sleep 2'" \
        --engine "name=good cmd='target/release/examples/fake_engine'" \
        --games 2 --st 0.5 --hang-timeout 3 2>&1 | grep -E "^game|^Forfeits"
done
