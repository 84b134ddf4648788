#!/usr/bin/env bash
# Checks the search signature: runs `otrera bench` (one thread) twice, checks both runs agree,
# and compares the node count with the expected one: the argument if given, otherwise the
# "Bench: N" line of the latest commit message that has one. Fails (exit 1) when they differ or
# when no expected signature can be found, so a commit that changes the search without a correct
# "Bench:" line turns CI red (.ci/run runs this after the tests).
# Usage: scripts/bench_check.sh [EXPECTED]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
signature() { target/release/otrera bench | sed -n 's/^Nodes searched: //p'; }
first=$(signature)
second=$(signature)
if [ "$first" != "$second" ]; then
    echo "bench is not reproducible: $first then $second" >&2
    exit 1
fi
expected=${1:-$(git log -n 200 --format=%B | sed -n 's/^Bench: \([0-9]*\)$/\1/p' | head -n1)}
if [ -z "$expected" ]; then
    echo "bench signature $first, but no expected signature was given or found in the last 200" \
        "commit messages (a line 'Bench: N')" >&2
    exit 1
fi
if [ "$first" != "$expected" ]; then
    echo "bench signature $first differs from the expected $expected" >&2
    exit 1
fi
echo "Bench: $first (as expected)"
