#!/usr/bin/env bash
# Otrera against itself under a GUI's clock, without the GUI: the match runner reports
# time_left in whole seconds rounded like Quarry's and charges a controller lag on top of each
# move, across the controls a Quarry user picks. Prints, per control, the games, the time losses
# and the median thinking time per move (as the engine measured it, from its log).
# Usage: [BIN=target/release/otrera] [GAMES=10] [LAG=300] [CONCURRENCY=1] \
#        scripts/gui_clock_match.sh [more otrera match options]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    BIN=target/release/otrera
fi
BIN=$(realpath "$BIN")
out=$(mktemp -d)
total_losses=0
for spec in "canadian:10:5:5|" "canadian:10:5:5|--ponder" "canadian:20:10:5|" \
            "canadian:20:10:5|--ponder" "30|"; do
    tc=${spec%%|*}
    extra=${spec#*|}
    name=$(echo "$tc$extra" | tr -c 'a-z0-9' '_')
    log="$out/$name.log"
    cmd="env RUST_LOG=otrera::engine=info $BIN --threads 1 --resign off $extra"
    "$BIN" match \
        --engine "name=a stderr=$log cmd='$cmd'" \
        --engine "name=b stderr=$log cmd='$cmd'" \
        --games "${GAMES:-10}" --tc "$tc" --clock-report whole-seconds \
        --controller-lag "${LAG:-300}" --margin 0 --random-plies 2 \
        --concurrency "${CONCURRENCY:-1}" --jsonl "$out/$name.jsonl" "$@" >"$out/$name.txt"
    games=$(grep -c '"type":"game"' "$out/$name.jsonl" || true)
    losses=$(grep -c '"termination":"time"' "$out/$name.jsonl" || true)
    total_losses=$((total_losses + losses))
    median=$(sed -n 's/.*genmove [a-z]*: .* in \([0-9.]*\) s$/\1/p' "$log" | sort -n |
        awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]; else print "-"}')
    echo "$tc $extra: $games games, $losses lost on time, median move ${median} s"
done
echo "records and logs in $out; time losses in all: $total_losses"
[ "$total_losses" -eq 0 ]
