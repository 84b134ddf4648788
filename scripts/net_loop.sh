#!/usr/bin/env bash
# One generation of the network loop (docs/training.md#the-network-loop): self-play with the
# current best evaluation, train a candidate network, gate it against the current best with a
# match; the candidate is kept (RUN/best.onet) only if the gate's SPRT accepts it.
#
# Usage: scripts/net_loop.sh RUN [STEP [I/N]]
#   init          build, copy the binary to RUN/otrera and record the settings (once per run)
#   selfplay I/N  self-play shard I of SHARDS (an array task each on a cluster)
#   train         train RUN/candidate.onet on every shard's data and on $DATA
#   gate I/N      gating match shard I of GATE_SHARDS into RUN/gate-I.jsonl
#   verdict       merge the gate's shards, apply the SPRT, write RUN/verdict
#   all           all of the above on this machine, in order, stopping the gate once it decides
# (default: all). Every step can be stopped at any moment and the same command continues it; a
# finished step is skipped. Keep RUN outside the work tree.
#
# OTRERA=path/to/binary at `init` copies that build instead of building the work tree.
# Settings, from the environment at `init`, then read back from RUN/settings:
#   BEST        weights of the current best: learned, net, or a network file [learned]
#   BASE_CMD    the gate's opponent, if not RUN/otrera with BEST (e.g. an older binary) []
#   DATA        more self-play files to train on (earlier generations), space-separated []
#   GAMES       self-play games in all [4000]    PLAYOUTS  playouts per move [3000]
#   SEED        seed of self-play and of the gate's openings: a new one per generation [1]
#   SHARDS      self-play shards [1]             CONCURRENCY  games at a time per process [2]
#   HIDDEN      hidden units [32]                EPOCHS    training epochs [12]
#   GATE_GAMES  most gate games in all [400]     GATE_SHARDS  gate shards [20]
#   ST          seconds a move in the gate [0.25]
#   SPRT        the gate's test ["elo0=0 elo1=50"]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
run=${1:?usage: scripts/net_loop.sh RUN [STEP [I/N]]}
step=${2:-all}
part=${3:-}
mkdir -p "$run"
run=$(cd "$run" && pwd)
O=$run/otrera
keys=(BEST BASE_CMD DATA GAMES PLAYOUTS SEED SHARDS CONCURRENCY HIDDEN EPOCHS GATE_GAMES
    GATE_SHARDS ST SPRT)

die() {
    echo "net_loop: $*" >&2
    exit 1
}

init() {
    if [[ -f $run/settings ]]; then
        return
    fi
    : "${BEST:=learned}" "${BASE_CMD:=}" "${DATA:=}" "${GAMES:=4000}" "${PLAYOUTS:=3000}"
    : "${SEED:=1}" "${SHARDS:=1}" "${CONCURRENCY:=2}" "${HIDDEN:=32}" "${EPOCHS:=12}"
    : "${GATE_GAMES:=400}" "${GATE_SHARDS:=20}" "${ST:=0.25}" "${SPRT:=elo0=0 elo1=50}"
    if [[ $BEST != learned && $BEST != net && $BEST != builtin ]]; then
        [[ -f $BEST ]] || die "BEST: no such file: $BEST"
        cp "$BEST" "$run/best-before.onet"
        BEST=$run/best-before.onet
    fi
    local bin=${OTRERA:-}
    if [[ -z $bin ]]; then
        (cd "$root" && cargo build --release --quiet)
        bin=$root/target/release/otrera
    fi
    cp "$bin" "$O.tmp"
    mv "$O.tmp" "$O"
    for k in "${keys[@]}"; do
        printf '%s=%q\n' "$k" "${!k}"
    done >"$run/settings.tmp"
    mv "$run/settings.tmp" "$run/settings"
    echo "net_loop: $run: settings recorded" >&2
}

load() {
    [[ -f $run/settings ]] || die "$run has no settings: run 'scripts/net_loop.sh $run init' first"
    # shellcheck source=/dev/null
    source "$run/settings"
}

# Sets `todo` to shard I of the step's argument I/N, or to every shard in turn.
shards() {
    local n=$1
    if [[ -n $part ]]; then
        [[ $part =~ ^([0-9]+)/([0-9]+)$ && ${BASH_REMATCH[2]} == "$n" && ${BASH_REMATCH[1]} -lt $n ]] ||
            die "shard '$part' is not I/$n"
        todo=("${BASH_REMATCH[1]}")
    else
        mapfile -t todo < <(seq 0 $((n - 1)))
    fi
}

selfplay() {
    local i todo per=$(((GAMES + SHARDS - 1) / SHARDS))
    shards "$SHARDS"
    for i in "${todo[@]}"; do
        [[ -f $run/selfplay-$i.done ]] && continue
        "$O" selfplay --out "$run/selfplay-$i.osp" --resume --games "$per" --playouts "$PLAYOUTS" \
            --seed "$SEED" --shard "$i/$SHARDS" --concurrency "$CONCURRENCY" --weights "$BEST" \
            2>>"$run/selfplay-$i.log"
        touch "$run/selfplay-$i.done"
    done
}

train() {
    [[ -f $run/candidate.onet ]] && return
    local i files=()
    for ((i = 0; i < SHARDS; i++)); do
        [[ -f $run/selfplay-$i.done ]] || die "self-play shard $i/$SHARDS is not finished"
        files+=("$run/selfplay-$i.osp")
    done
    # shellcheck disable=SC2206
    files+=($DATA)
    "$O" train --model net "${files[@]}" --hidden "$HIDDEN" --epochs "$EPOCHS" \
        --out "$run/candidate.tmp.onet" 2>&1 | tee "$run/train.log"
    mv "$run/candidate.tmp.onet" "$run/candidate.onet"
}

gate() {
    [[ -f $run/candidate.onet ]] || die "no candidate yet: run the train step"
    local i todo per=$(((GATE_GAMES + GATE_SHARDS - 1) / GATE_SHARDS))
    per=$(((per + 1) / 2 * 2))
    local best=${BASE_CMD:-$O --threads 1 --weights $BEST}
    shards "$GATE_SHARDS"
    for i in "${todo[@]}"; do
        [[ -f $run/gate-$i.jsonl ]] && continue
        if [[ -z $part && -f $run/verdict && $(cat "$run/verdict") != continue ]]; then
            break
        fi
        "$O" match --engine "name=candidate cmd='$O --threads 1 --weights $run/candidate.onet'" \
            --engine "name=best cmd='$best'" --games "$per" --st "$ST" --random-plies 4 \
            --seed "$SEED" --shard "$i/$GATE_SHARDS" --concurrency "$CONCURRENCY" \
            --jsonl "$run/gate-$i.tmp.jsonl" >"$run/gate-$i.txt"
        # An interrupted shard is played again from its start: only finished shards count.
        if grep -q '"ending":"completed"' "$run/gate-$i.tmp.jsonl"; then
            mv "$run/gate-$i.tmp.jsonl" "$run/gate-$i.jsonl"
        else
            die "gate shard $i did not finish"
        fi
        [[ -z $part ]] && verdict
    done
}

verdict() {
    local files=() f v
    for f in "$run"/gate-*.jsonl; do
        [[ -e $f && $f != *.tmp.jsonl ]] && files+=("$f")
    done
    [[ ${#files[@]} -gt 0 ]] || die "no finished gate shard yet"
    # shellcheck disable=SC2086
    "$O" match --merge "${files[@]}" --sprt $SPRT >"$run/gate.txt"
    cat "$run/gate.txt"
    if grep -q ': H1 accepted$' "$run/gate.txt"; then
        v=accepted
        cp "$run/candidate.onet" "$run/best.onet"
    elif grep -q ': H0 accepted$' "$run/gate.txt"; then
        v=rejected
    elif [[ ${#files[@]} -ge $GATE_SHARDS ]]; then
        v=undecided
    else
        v=continue
    fi
    echo "$v" >"$run/verdict"
    echo "net_loop: verdict: $v" >&2
}

case $step in
init) init ;;
selfplay) load && selfplay ;;
train) load && train ;;
gate) load && gate ;;
verdict) load && verdict ;;
all)
    init
    load
    part=
    selfplay
    train
    gate
    [[ -f $run/verdict ]] || verdict
    echo "net_loop: $run: $(cat "$run/verdict")" >&2
    ;;
*) die "unknown step '$step'" ;;
esac
