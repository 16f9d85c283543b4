#!/usr/bin/env bash
# Idle memory of a chat with 200 images (issue 25), for make bench: the same
# 400-message chat is opened twice in the real window, once without
# attachments and once with a picture of its own (a 1280×960 PNG) on each of
# its 200 questions. The window shows a chat's images only as they come near
# the visible area, so opening the chat with pictures must not decode all
# 200 of them: its anonymous memory (as the soak measures it: what the app
# and its WebKit processes wrote themselves) is read 8 s after the chat
# opens, and again after scrolling to the top of the chat and back to its
# end (every picture has been near the visible area once). Prints
#   IMAGES text-MiB images-MiB images-after-scroll-MiB
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/bench-images
mkdir -p "$ART" && rm -f "$ART"/*.png
echo '[]' >"$WORK/script.json"
start_fake "$WORK/script.json"

tree() { echo "$1"; local c; for c in $(pgrep -P "$1"); do tree "$c"; done; }
anon() {
  local total=0 p kb
  for p in $(tree "$APP_PID"); do
    [ -r "/proc/$p/smaps_rollup" ] || continue
    kb=$(awk '/^Pss_Anon:/{print $2}' "/proc/$p/smaps_rollup")
    total=$((total + ${kb:-0}))
  done
  echo $((total / 1024))
}
# open_chat DOC: a fresh data dir holding only the chat of DOC, the app
# started and the chat opened (first in the list).
open_chat() {
  stop_app
  rm -rf "$WORK/data" "$WORK/xdg"
  PLAYCHAT_DATA_DIR=$WORK/data "$BIN" sessions import "$1" >/dev/null
  start_app
  xdotool mousemove --window "$WID" 130 142 click 1
  sleep 8
}
"$ROOT/build/bin/gensession" -n 400 >"$WORK/text.json"
"$ROOT/build/bin/gensession" -n 400 -images >"$WORK/images.json"

open_chat "$WORK/text.json"
TEXT=$(anon)
echo "bench-images: the 400-message chat without images: $TEXT MiB anonymous" >&2
open_chat "$WORK/images.json"
IMAGES=$(anon)
shot images-open
echo "bench-images: the same chat with 200 images: $IMAGES MiB anonymous" >&2
# Through the whole chat and back: Home, then End, with the history focused.
xdotool mousemove --window "$WID" 700 400 click 1
for _ in $(seq 12); do xdotool key Home; sleep 1.5; done
shot images-top
for _ in 1 2 3; do xdotool key End; sleep 2; done
sleep 8
SCROLLED=$(anon)
echo "bench-images: after scrolling to its top and back: $SCROLLED MiB anonymous" >&2
stop_app
echo "IMAGES $TEXT $IMAGES $SCROLLED"
