#!/bin/sh
# CPU used by the GUI's server threads (HTTP, event stream, session) while the engine analyses
# with 2 threads and one page streams the analysis: per-thread CPU time from /proc over 10 s.
# Linux only; needs curl. Usage: scripts/gui_cpu.sh [SECONDS]
set -eu
cd "$(dirname "$0")/.."
SECS=${1:-10}
BIN=${OTRERA:-target/release/otrera}
LOG=$(mktemp)
"$BIN" gui --port 0 --threads 2 --white human --black human >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID $CURL 2>/dev/null; rm -f "$LOG"' EXIT
CURL=""
sleep 0.5
URL=$(grep -o 'http://[^ ]*' "$LOG")
curl -sN "${URL}api/events" >/dev/null &
CURL=$!
curl -s -X POST -H 'X-Otrera: 1' -d on "${URL}api/analysis" >/dev/null
sleep 1
# Time on CPU (ns, from schedstat) of each thread, summed by thread name. Threads that ended
# between the snapshots are missed (the server threads here live throughout).
snapshot() {
    for t in /proc/$PID/task/*; do
        echo "$(cat "$t/comm") $(cut -d' ' -f1 "$t/schedstat")"
    done | awk '{ a[$1] += $2 } END { for (n in a) print n, a[n] }' | sort
}
snapshot >"$LOG.a"
sleep "$SECS"
snapshot >"$LOG.b"
join -a 2 -e 0 -o 0,1.2,2.2 "$LOG.a" "$LOG.b" | awk -v s="$SECS" -v hz=1000000000 '
    { used = ($3 - $2) / hz; total += used; if ($1 ~ /^gui-/) gui += used;
      printf "%-16s %8.4f s CPU\n", $1, used }
    END { printf "over %d s: all threads %.2f s CPU, server threads (gui-*) %.4f s = %.3f%% of one core, %.3f%% of the process\n",
          s, total, gui, 100 * gui / s, 100 * gui / (total > 0 ? total : 1) }'
rm -f "$LOG.a" "$LOG.b"
