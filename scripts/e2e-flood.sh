#!/usr/bin/env bash
# End-to-end flood test (issue #5): the fake model streams replies as
# one-character deltas — 2,000 and 20,000 as fast as it can, then 20,000 at
# about 2,000 a second while the user types and presses Stop. Checks, in the
# real window under Xvfb:
#   - a 2,000-delta reply is painted complete within 500 ms of being stored,
#     a 20,000-delta one within 2 s (the screen settles and shows its end);
#   - during a flood the window keeps repainting and a typed key appears in
#     the input within 100 ms;
#   - Stop during a flood stores the partial reply within 300 ms.
# Pixel timings come from scripts/xprobe.py (Xlib, ~5 ms resolution).
# Those limits are the issue's targets and apply with FLOOD_STRICT=1 (make
# bench). Under `make test` the limits are 4× wider, so a loaded CI machine
# does not fail on scheduling noise while a real regression (the window
# frozen for seconds, Stop ignored) still fails; the measured figures are
# printed either way.
# Figures: .artifacts/e2e-flood/report.txt.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-flood
mkdir -p "$ART" && rm -f "$ART"/*.png "$ART"/report.txt
REPORT=$ART/report.txt
SLACK=4
[ "${FLOOD_STRICT:-}" = 1 ] && SLACK=1
lim() { echo $(($1 * SLACK)); }
say() { echo "e2e-flood: $*" | tee -a "$REPORT"; }
XPROBE=$ROOT/scripts/xprobe.py

# flood_text N: a Markdown reply of about N characters (paragraphs and
# lists) that starts with FLOODSTART and ends with FLOODEND.
flood_text() {
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
n = int(sys.argv[1])
parts, size, i = ["FLOODSTART\n\n"], 12, 0
while size < n - 12:
    p = (f"- item {i} of a list\n" if i % 5 == 3 else
         f"Paragraph {i}: the quick brown fox jumps over the lazy dog. 吾輩は猫である。\n\n")
    parts.append(p); size += len(p); i += 1
parts.append("\n\nFLOODEND")
print(json.dumps("".join(parts)))
PY
}
cat >"$WORK/script.json" <<JSON
[{"reply": "warm", "delta_size": 1},
 {"reply": $(flood_text 2000), "delta_size": 1},
 {"reply": $(flood_text 20000), "delta_size": 1},
 {"reply": $(flood_text 20000), "delta_size": 1, "chunk_delay": "500us"}]
JSON
start_fake "$WORK/script.json"
start_app

geo=$(xdotool getwindowgeometry --shell "$WID")
WX=$(sed -n 's/^X=//p' <<<"$geo"); WY=$(sed -n 's/^Y=//p' <<<"$geo")
WW=$(sed -n 's/^WIDTH=//p' <<<"$geo"); WH=$(sed -n 's/^HEIGHT=//p' <<<"$geo")
# Screen regions: the chat area (right of the sidebar, between header and
# input) and the message input.
CHAT="$((WX + 320)) $((WY + 60)) $((WW - 340)) $((WH - 180))"
# The composer sits above the context meter's line: its box spans about
# WH-103..WH-43, the Send/Stop button WH-93..WH-63 at WW-161..WW-89.
INPUT="$((WX + 340)) $((WY + WH - 98)) $((WW - 520)) 40"
BUTTON="$((WX + WW - 170)) $((WY + WH - 98)) 90 40" # Send, or Stop while a reply streams
now_ms() { date +%s%3N; }
replies() { sql "SELECT count(*) FROM messages WHERE role='assistant' AND status='$1'"; }
wait_stored() { # STATUS N: polls every 10 ms for up to 60 s
  for _ in $(seq 6000); do [ "$(replies "$1")" -ge "$2" ] && return 0; sleep 0.01; done
  fail "no $1 reply #$2 stored"
}

# flood N LIMIT_MS NAME TEXT: sends TEXT; once the Nth complete reply is
# stored, the window must end the turn (the red Stop turns back into Send)
# and the chat area settle within LIMIT_MS, showing the reply's end.
flood() {
  local base ended settled ms
  # shellcheck disable=SC2086
  base=$("$XPROBE" hash $CHAT)
  send "$4"
  wait_stored complete "$1"
  # The red Stop button turns back into Send when the window ends the turn.
  # shellcheck disable=SC2086
  ended=$("$XPROBE" nored $BUTTON 60000)
  [ "$ended" -ge 0 ] || fail "$3: the window never ended the turn"
  # shellcheck disable=SC2086
  settled=$("$XPROBE" settle $CHAT "$base" 400 15000)
  ms=$((ended + settled))
  shot "$3"
  say "$3: painted complete ${ms} ms after the reply was stored (limit $2 ms)"
  [ "$settled" -ge 0 ] && [ "$ms" -le "$2" ] || fail "$3: the window took ${ms} ms to paint the complete reply"
  ocr "$ART/$3.png" FLOODEND
  grep -q "FLOODEND" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "$3: the end of the reply is not on screen"; }
}

# A first short turn warms the page (the first reply compiles the Markdown
# path); the floods are measured after it.
send "warm up"
wait_stored complete 1
sleep 1
flood 2 "$(lim 500)" 01-flood-2000 "flood of two thousand"
flood 3 "$(lim 2000)" 02-flood-20000 "flood of twenty thousand"

# A slower flood (~2,000 deltas a second): repaints, a key, then Stop.
send "flood to stop"
sleep 1.5
# shellcheck disable=SC2086
frames=$("$XPROBE" frames $CHAT 1000)
say "03-during-flood: $frames repaints of the chat area in 1 s"
[ "$frames" -ge 5 ] || fail "the window stopped repainting during the flood ($frames repaints in 1 s)"
xdotool mousemove --window "$WID" $((WW * 2 / 5)) $((WH - 60)) click 1
sleep 0.2
# shellcheck disable=SC2086
keyms=$("$XPROBE" key x $INPUT 2000)
say "03-during-flood: a typed key appeared in the input after ${keyms} ms (limit $(lim 100) ms)"
[ "$keyms" -ge 0 ] && [ "$keyms" -le "$(lim 100)" ] || fail "a key typed during the flood took ${keyms} ms to appear"
shot 03-during-flood
[ "$(replies partial)" = 0 ] || fail "the flood ended before Stop could be pressed"
# (the pointer goes to Stop first: WebKitGTK hit-tests a press where it
# last saw the pointer)
xdotool mousemove --window "$WID" $((WW - 126)) $((WH - 78))
sleep 0.3
t0=$(now_ms)
xdotool click 1
wait_stored partial 1
stopms=$(($(now_ms) - t0))
say "03-stop: partial reply stored ${stopms} ms after Stop was clicked (limit $(lim 300) ms)"
[ "$stopms" -le "$(lim 300)" ] || fail "Stop took ${stopms} ms"
len=$(sql "SELECT length(content) FROM messages WHERE role='assistant' AND status='partial'")
say "03-stop: the partial reply keeps ${len} characters"
[ "$len" -gt 0 ] && [ "$len" -lt 20000 ] || fail "the partial reply has $len characters"
sleep 1
shot 04-stopped
echo "e2e-flood: 4 passed, 0 failed"
