#!/usr/bin/env bash
# Start-up with a 1,000-message session (issue 22), for make bench: from the
# exec of the built app until the window maps, until the sidebar's session
# list first paints, and until a key typed into the message box shows (the
# window is usable). Three starts on the same data dir (the first also
# builds WebKit's caches); prints the median of each figure as
#   STARTUP map-ms sidebar-ms usable-ms
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${STARTUP_INNER:-}" ]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  go run ./scripts/gensession -n 1000 >"$WORK/long.json"
  PLAYCHAT_DATA_DIR=$WORK/data ./build/bin/playchat sessions import "$WORK/long.json" >/dev/null
  STARTUP_INNER=1 PLAYCHAT_DATA_DIR=$WORK/data XDG_DATA_HOME=$WORK/xdg/data XDG_CACHE_HOME=$WORK/xdg/cache \
    XDG_CONFIG_HOME=$WORK/xdg/config dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0"
  exit
fi
now() { date +%s%3N; }
maps=() sides=() uses=()
for run in 1 2 3 4; do
  t0=$(now)
  ./build/bin/playchat >/dev/null 2>&1 &
  pid=$!
  wid=""
  for _ in $(seq 3000); do
    wid=$(xdotool search --onlyvisible --name '^playchat$' 2>/dev/null | tail -1 || true)
    [ -n "$wid" ] && break
    sleep 0.005
  done
  [ -n "$wid" ] || { echo "bench-startup: no window" >&2; exit 1; }
  t_map=$(($(now) - t0))
  eval "$(xdotool getwindowgeometry --shell "$wid")"
  # The session list (below the New chat button) drawn, then a click in the
  # message box and a key typed into it shown: one probe process, polling
  # every 5 ms, times both from t0 (no tool's own start-up in them).
  read -r t_side t_use < <(./scripts/xprobe.py startup "$t0" $((X + 12)) $((Y + 110)) 260 80 \
    $((X + WIDTH * 2 / 5)) $((Y + HEIGHT - 60)) $((X + 340)) $((Y + HEIGHT - 98)) $((WIDTH - 520)) 40 30000)
  ((t_side >= 0 && t_use >= 0)) || { echo "bench-startup: the sidebar or the key never showed" >&2; exit 1; }
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  sleep 1
  echo "bench-startup: start $run: window mapped after $t_map ms, sidebar painted after $t_side ms, a key showed after $t_use ms" >&2
  # The first start fills WebKit's caches: the figures are those of the later ones.
  ((run == 1)) && continue
  maps+=("$t_map") sides+=("$t_side") uses+=("$t_use")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
echo "STARTUP $(median "${maps[@]}") $(median "${sides[@]}") $(median "${uses[@]}")"
