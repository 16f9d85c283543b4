#!/usr/bin/env bash
# End-to-end test of reminders (issue 10) on the built app under Xvfb, with
# a stand-in tray host (trayprobe watch) and notification server
# (fakenotify) on the private session bus of dbus-run-session:
#   1. typed in Japanese, 「3秒後に燃えるゴミって教えて」 makes the fake model call
#      create_reminder due 3 s after it answers;
#   2. the window is closed as a window manager closes it: it hides to the
#      tray and the app keeps running;
#   3. the notification (one Notify call with the text) arrives within 1 s
#      of the due time;
#   4. the tray's "Open playchat" shows the window again; the reminders
#      panel shows the reminder delivered;
#   5. after a restart the reminder is not delivered again.
# Screenshots: .artifacts/e2e-reminders/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-reminders
mkdir -p "$ART" && rm -f "$ART"/*.png
TEXT="燃えるゴミの日"

setsid "$ROOT/build/bin/fakenotify" >"$WORK/notify.jsonl" 2>"$WORK/notify.err" &
GROUPS_STARTED+=($!)
spawn "$WORK/tray.out" "$ROOT/build/bin/trayprobe" watch
wait_for "the fake notification server" grep -q '"ready"' "$WORK/notify.jsonl"

cat >"$WORK/script.json" <<JSON
[{"tool_call_chunks": ["[{\"index\":0,\"id\":\"r0\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\",\"arguments\":\"{\\\\\"content\\\\\":\\\\\"$TEXT\\\\\",\\\\\"due\\\\\":\\\\\"{{now+3s}}\\\\\"}\"}}]"]},
 {"chunks": ["3秒後にお知らせします。"]}]
JSON
start_fake "$WORK/script.json"
start_app
wait_for "the tray icon to register" grep -q registered "$WORK/tray.out"
echo "e2e: the tray icon registered with the tray host"

send "3秒後に燃えるゴミって教えて"
wait_for "the reminder to be created" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM reminders WHERE content='$TEXT'\")\" = 1 ]"
due=$(sql "SELECT due_at FROM reminders WHERE content='$TEXT'")
echo "e2e: the model's create_reminder call stored a reminder due $due"

# Close the window as a window manager would: it hides to the tray.
"$ROOT/scripts/xprobe.py" close "$WID" >/dev/null
for _ in $(seq 50); do
  [ -z "$(xdotool search --onlyvisible --name '^playchat$' 2>/dev/null || true)" ] && break
  sleep 0.1
done
[ -z "$(xdotool search --onlyvisible --name '^playchat$' 2>/dev/null || true)" ] || fail "closing the window did not hide it"
kill -0 "$APP_PID" 2>/dev/null || fail "closing the window ended the app although a tray host is present"
echo "e2e: closing the window hid it to the tray; the app runs on"

wait_for "the notification" grep -q '"event":"notify"' "$WORK/notify.jsonl"
sleep 2 # a second Notify would arrive now
[ "$(grep -c '"event":"notify"' "$WORK/notify.jsonl")" = 1 ] || { cat "$WORK/notify.jsonl" >&2; fail "not exactly one Notify call"; }
line=$(grep '"event":"notify"' "$WORK/notify.jsonl")
grep -q "$TEXT" <<<"$line" || fail "the notification lacks the reminder's text: $line"
# Its icon exists: a file (run from the build folder) or the installed
# theme icon — never a name no theme has (issue 22).
icon=$(jq -r '.appIcon // empty' <<<"$line")
case "$icon" in
  /*) [ -f "$icon" ] || fail "the notification's icon file $icon does not exist" ;;
  "") fail "the notification names no icon: $line" ;;
  *) [ -n "$(find /usr/share/icons /usr/local/share/icons -name "$icon.*" 2>/dev/null | head -1)" ] ||
       fail "the notification's icon $icon is in no icon theme" ;;
esac
echo "e2e: the notification's icon is $icon"
at=$(sed -n 's/.*"at":"\([^"]*\)".*/\1/p' <<<"$line")
delay_ms=$(( $(date -d "$at" +%s%3N) - $(date -d "$due" +%s%3N) ))
[ "$delay_ms" -ge 0 ] && [ "$delay_ms" -le 1000 ] || fail "the notification came ${delay_ms} ms after the due time ($at vs $due)"
echo "e2e: one notification with the text, ${delay_ms} ms after the due time (window hidden)"
notified=$(sql "SELECT notified_at FROM reminders WHERE content='$TEXT'")
[ "$(sql "SELECT state FROM reminders WHERE content='$TEXT'")" = delivered ] || fail "the reminder is not stored delivered"

# The tray brings the window back; the reminders panel shows it delivered.
"$ROOT/build/bin/trayprobe" click "Open playchat" >/dev/null || fail "the tray menu has no Open playchat"
wait_for "the window to show again" bash -c "[ -n \"\$(xdotool search --onlyvisible --name '^playchat\$' 2>/dev/null)\" ]"
WID=$(xdotool search --onlyvisible --name '^playchat$' | tail -1)
sleep 1.5
shot 01-shown
ocr "$ART/01-shown.png"
read -r x y w h < <(find_word Reminders) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no Reminders button in the header"; }
click_screen $((x + w / 2)) $((y + h / 2))
sleep 1.5
shot 02-panel
# The side panel only (the right part of the window below the header).
geo=$(xdotool getwindowgeometry --shell "$WID")
wx=$(sed -n 's/^X=//p' <<<"$geo") wy=$(sed -n 's/^Y=//p' <<<"$geo")
ww=$(sed -n 's/^WIDTH=//p' <<<"$geo") wh=$(sed -n 's/^HEIGHT=//p' <<<"$geo")
ocr_region "$ART/02-panel.png" $((wx + ww / 2)) $((wy + 50)) $((ww / 2)) $((wh - 50)) Delivered
grep -q "Delivered" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the reminders panel does not show the reminder delivered"; }
echo "e2e: the tray's Open playchat showed the window; the panel shows the reminder delivered ($ART/02-panel.png)"

# A restart does not deliver it again.
stop_app
start_app
sleep 3
[ "$(grep -c '"event":"notify"' "$WORK/notify.jsonl")" = 1 ] || fail "the restart delivered the reminder again"
[ "$(sql "SELECT notified_at FROM reminders WHERE content='$TEXT'")" = "$notified" ] || fail "the restart changed notified_at"
echo "e2e: a restart did not deliver it again"
echo "e2e: 5 passed, 0 failed"
