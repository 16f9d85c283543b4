#!/usr/bin/env bash
# Benchmarks, printed as one table:
#  - time to first chunk of a turn vs. the fake server's own 300 ms first byte (same run)
#  - per-turn overhead outside the LLM in a 10,000-message, 200-memory session
#  - chunks per second relayed from the stream to the event sink
#  - idle memory (PSS) of the app and its WebKit processes with a 1,000-message session open
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT

go test -p 1 -run '^$' -bench . -benchtime 20x ./backend/chat/ | tee "$OUT" >&2

if [ -z "${BENCH_INNER:-}" ]; then
  WORK=$(mktemp -d)
  go run ./scripts/gensession -n 1000 >"$WORK/long.json"
  PLAYCHAT_DATA_DIR=$WORK/data ./build/bin/playchat sessions import "$WORK/long.json" >/dev/null
  PSS=$(BENCH_INNER=1 PLAYCHAT_DATA_DIR=$WORK/data XDG_DATA_HOME=$WORK/xdg/data XDG_CACHE_HOME=$WORK/xdg/cache XDG_CONFIG_HOME=$WORK/xdg/config dbus-run-session -- xvfb-run -a -s "-screen 0 1280x900x24" \
        bash -c '
          ./build/bin/playchat >/dev/null 2>&1 & pid=$!
          for i in $(seq 100); do xdotool search --name "^playchat$" >/dev/null 2>&1 && break; sleep 0.2; done
          sleep 2
          wid=$(xdotool search --onlyvisible --name "^playchat$" | tail -1)
          xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || true
          # open the session: it is the first (and only) one in the list
          xdotool mousemove --window "$wid" 130 134 click 1
          sleep 5
          import -window root .artifacts/bench-1000.png 2>/dev/null || true
          # the app and every process it started (WebKit web and network processes)
          tree() { echo "$1"; for c in $(pgrep -P "$1"); do tree "$c"; done; }
          total=0; parts=""
          for p in $(tree $pid); do
            [ -r /proc/$p/smaps_rollup ] || continue
            kb=$(awk "/^Pss:/{print \$2}" /proc/$p/smaps_rollup)
            name=$(tr -d "\0" </proc/$p/comm)
            total=$((total + kb)); parts="$parts $name=$((kb/1024))MiB"
          done
          kill $pid; wait $pid 2>/dev/null || true
          app=$(awk "/^Pss:/{print int(\$2/1024)}" /proc/$pid/smaps_rollup 2>/dev/null)
          echo "PSS_RESULT $((total/1024)) MiB ($parts ) APP=${app}"' | sed -n "s/^PSS_RESULT //p")
  APP_PSS=${PSS##*APP=}
  PSS=${PSS% APP=*}
  rm -rf "$WORK"
fi

metric() { awk -v b="$1" -v m="$2" '$1 ~ b { for (i=1;i<=NF;i++) if ($i==m) print $(i-1) }' "$OUT" | head -1; }
nsop() { awk -v b="$1" '$1 ~ b { for (i=1;i<=NF;i++) if ($i=="ns/op") printf "%.2f", $(i-1)/1e6 }' "$OUT" | head -1; }

echo
printf '| %-58s | %-22s |\n' "benchmark" "result"
printf '|%s|%s|\n' "$(printf -- '-%.0s' {1..60})" "$(printf -- '-%.0s' {1..24})"
printf '| %-58s | %-22s |\n' "time to first chunk (fake server first byte 300 ms)" "$(metric TimeToFirstChunk ttfc-ms) ms"
printf '| %-58s | %-22s |\n' "fake server's own time to first byte, same run" "$(metric TimeToFirstChunk server-ttfb-ms) ms"
printf '| %-58s | %-22s |\n' "added by playchat before the first chunk" "$(metric TimeToFirstChunk overhead-ms) ms"
printf '| %-58s | %-22s |\n' "turn overhead, 10k msgs / 200 memories / 20 active" "$(nsop '20-active') ms"
printf '| %-58s | %-22s |\n' "turn overhead, 10k msgs / 200 memories / 2000 active" "$(nsop '2000-active') ms"
printf '| %-58s | %-22s |\n' "chunks relayed from stream to event sink" "$(metric ChunkRelay chunks/s) /s"
[ -n "${PSS:-}" ] && printf '| %-58s | %-22s |\n' "idle PSS, app process alone (target <= 100 MiB)" "${APP_PSS} MiB"
[ -n "${PSS:-}" ] && printf '| %-58s | %-22s |\n' "idle PSS, app + WebKit, 1,000-message session open" "${PSS%% (*}" && echo "  (${PSS#*(}"
