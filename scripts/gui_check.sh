#!/bin/sh
# A real-browser check of `otrera gui`: headless Chromium loads the page, plays a move by
# clicks, sees the engine answer, checks the analysis arrows, the territory and the region
# overlays, plays on a 5x4 board, and saves screenshots (default: target/gui-check/).
#
# Installs nothing. Needs the Debian packages chromium and python3.
# Usage: scripts/gui_check.sh [OUT_DIR]   (OTRERA=path/to/binary to test another build)
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-target/gui-check}
BIN=${OTRERA:-target/release/otrera}

CHROMIUM=""
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then CHROMIUM=$(command -v "$c"); break; fi
done
missing=""
[ -n "$CHROMIUM" ] || missing="chromium"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
if [ -n "$missing" ]; then
    echo "gui_check: missing:$missing. Install the Debian packages: apt-get install$missing" >&2
    exit 2
fi
if [ ! -x "$BIN" ]; then
    cargo build --release --quiet
fi

LOG=$(mktemp)
"$BIN" gui --port 0 --threads 2 --memory 256 --white human --black engine \
    --playouts 3000 >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -f "$LOG"' EXIT
URL=""
for _ in $(seq 1 100); do
    URL=$(grep -o 'http://[^ ]*' "$LOG" || true)
    [ -n "$URL" ] && break
    sleep 0.1
done
if [ -z "$URL" ]; then
    echo "gui_check: the server did not start:" >&2
    cat "$LOG" >&2
    exit 1
fi
echo "server at $URL"
python3 scripts/gui_check.py --url "$URL" --chromium "$CHROMIUM" --out "$OUT"
