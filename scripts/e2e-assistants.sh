#!/usr/bin/env bash
# End-to-end test of assistants (issue 26) in the built app under Xvfb:
# create an assistant in the window (a name, a system prompt with a unique
# marker, temperature 0.3), start a new chat from it with the picker, send a
# message, and read the fake model's request log: the request must carry the
# assistant's system prompt and temperature, and the chat records the
# assistant. One app start. Screenshots: .artifacts/e2e-assistants/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-assistants
mkdir -p "$ART" && rm -f "$ART"/*.png

MARK="E2EMARK$$"
NAME="Tutor" # OCR reads it; the marker is what must be unique
LOG=$WORK/requests.jsonl
echo '[]' >"$WORK/script.json"
start_fake "$WORK/script.json" -chunks 2 -request-log "$LOG"
start_app

# 1. The header's Assistants tool opens the assistants panel.
shot 01-start
ocr "$ART/01-start.png" Assistants
read -r x y w h < <(find_word Assistants) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no Assistants tool in the header"; }
click_screen $((x + w / 2)) $((y + h / 2))
sleep 1.2
shot 02-panel
ocr "$ART/02-panel.png" Export
# OCR reads the white-on-blue "New assistant" poorly: it is the button just
# left of "Export all".
read -r x y w h < <(find_word Export) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no Export all button in the assistants panel"; }
nx=$((x - 80)) ny=$((y + h / 2))
echo "e2e: the assistants panel is open"

# 2. New assistant: the editor opens below the buttons; Tab walks its
# fields in order (Export all, Import, Icon, Name, Description, System
# prompt, Model, Temperature); Enter in a field saves.
click_screen "$nx" "$ny"
sleep 0.8
xdotool key Tab Tab Tab Tab
xdotool type --delay 40 "$NAME"
xdotool key Tab Tab
xdotool type --delay 30 "Answer as a patient tutor. $MARK"
xdotool key Tab Tab
xdotool type --delay 40 "0.3"
sleep 0.4
shot 03-editor
xdotool key Return
wait_for "the assistant to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM assistants WHERE name = '$NAME'\")\" = 1 ]"
settings=$(sql "SELECT settings FROM assistants WHERE name = '$NAME'")
jq -e --arg m "$MARK" '(.systemPrompt | contains($m)) and .temperature == 0.3' <<<"$settings" >/dev/null ||
  fail "the stored assistant's settings are $settings"
echo "e2e: the editor stored $NAME with its system prompt and temperature 0.3"

# 3. Close the panel (the same header tool: it covers the chat), pick the
# assistant on the new chat (the picker above the empty chat), then send.
sleep 0.5
shot 04-saved
read -r x y w h < <(find_word Assistants) || true
click_screen $((x + w / 2)) $((y + h / 2))
sleep 0.8
shot 05-picker
ocr "$ART/05-picker.png" "$NAME"
read -r x y w h < <(find_word_in "$NAME") || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "the new assistant is not offered on the new chat"; }
click_screen $((x + w / 2)) $((y + h / 2))
sleep 0.6
shot 06-picked
send "hello tutor"
wait_for "the reply" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 1 ]"
sleep 0.8
shot 07-replied

# 4. What the model received, from its request log.
req=$(jq -c 'select(any(.messages[]; .role == "user" and .content == "hello tutor"))' "$LOG" | head -1)
[ -n "$req" ] || { cat "$LOG" >&2; fail "no request for the message in the fake model's log"; }
jq -e --arg m "$MARK" 'any(.messages[]; .role == "system" and (.content | contains($m)))' <<<"$req" >/dev/null ||
  fail "the request has no system message with the assistant's prompt: $(jq -c '[.messages[] | select(.role == "system") | .content[:80]]' <<<"$req")"
jq -e '.temperature == 0.3' <<<"$req" >/dev/null || fail "the request's temperature is $(jq '.temperature' <<<"$req"), want 0.3"
[ "$(sql "SELECT a.name FROM sessions s JOIN assistants a ON a.id = s.assistant_id")" = "$NAME" ] ||
  fail "the chat does not record the assistant it started from"
echo "e2e: the request carried the assistant's system prompt ($MARK) and temperature 0.3; the chat records $NAME"
echo "e2e: 4 passed, 0 failed"
