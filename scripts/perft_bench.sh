#!/usr/bin/env bash
# Times `otrera perft 3` from the 10x10 start against the C reference perft, one after the other.
# Usage: scripts/perft_bench.sh [path/to/naive_perft.c]
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-../shared/reference/naive_perft.c}
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/naive_perft" "$ref"
t0=$(date +%s.%N)
ours=$(target/release/otrera perft 3 2>/dev/null | tail -n1)
t1=$(date +%s.%N)
theirs=$("$tmp/naive_perft" 10 3 0 3 3 0 6 0 9 3 0 6 3 9 6 9 9 6 | tail -n1)
t2=$(date +%s.%N)
echo "otrera: $ours in $(awk "BEGIN{print $t1 - $t0}") s"
echo "reference: $theirs in $(awk "BEGIN{print $t2 - $t1}") s"
[ "${ours##* }" = "8350439170" ] || { echo "wrong perft count" >&2; exit 1; }
