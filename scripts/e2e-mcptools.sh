#!/usr/bin/env bash
# End-to-end test of the user's own MCP servers (issue 24) in the window:
# an mcpServers JSON (Claude Desktop format) for a small stdio server built
# in this repo (build/bin/fakemcp) is typed into Settings → Tools (MCP) and
# imported; its row reaches "Ready (2 tools)" and lists them. In a chat the
# fake model calls its read-only tool, then its destructive one, which
# waits for the click on "Allow once" in the activity item; the activity
# shows both calls with the server's name, the answer arrives, and both
# results reached the model's next request (api_logs).
# Screenshots: .artifacts/e2e-mcptools/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-mcptools
mkdir -p "$ART" && rm -f "$ART"/*.png
[ -x "$ROOT/build/bin/fakemcp" ] || fail "build/bin/fakemcp is missing: make e2e-tools"

# The model looks the word up, then removes it (destructive: asks first),
# then answers.
cat >"$WORK/script.json" <<'JSON'
[{"tool_call_chunks": ["[{\"index\":0,\"id\":\"c_look\",\"type\":\"function\",\"function\":{\"name\":\"words__lookup_word\",\"arguments\":\"{\\\"word\\\":\\\"kiwi\\\"}\"}},{\"index\":1,\"id\":\"c_rm\",\"type\":\"function\",\"function\":{\"name\":\"words__remove_word\",\"arguments\":\"{\\\"word\\\":\\\"kiwi\\\"}\"}}]"]},
 {"chunks": ["KIWIDONE: ", "the word was found and removed."]}]
JSON
export AUTO_TAGS=false
start_fake "$WORK/script.json"
start_app
eval "$(xdotool getwindowgeometry --shell "$WID")" # X Y WIDTH HEIGHT of the window
SERVER_LOG=$WORK/data/logs/mcp

# ocr_part NAME X Y W H [WORD…]: OCR of that part of screenshot NAME only
# (a third of the screen reads in a third of the time); ocr.tsv holds screen
# coordinates as usual.
ocr_part() {
  local name=$1 x=$2 y=$3 w=$4 h=$5
  shift 5
  convert "$ART/$name.png" -crop "${w}x${h}+${x}+${y}" +repage "$WORK/part.png"
  ocr "$WORK/part.png" "$@"
  awk -F'\t' -v dx="$x" -v dy="$y" 'BEGIN { OFS = "\t" } { $2 += dx; $3 += dy; print }' "$WORK/ocr.tsv" >"$WORK/ocr.shift" &&
    mv "$WORK/ocr.shift" "$WORK/ocr.tsv"
}
# the side panel (right half of the window) and the chat's upper half
ocr_panel() { ocr_part "$1" $((X + WIDTH / 2)) "$Y" $((WIDTH / 2)) "$HEIGHT" "${@:2}"; }
ocr_chat() { ocr_part "$1" $((X + 300)) "$Y" $((WIDTH - 300)) $((HEIGHT / 2)) "${@:2}"; }

# 1. Settings → Tools (MCP) sits near the end of the panel (End scrolls
# there): type the Claude Desktop JSON into the paste box, Tab to Import.
xdotool key ctrl+comma
sleep 1.5
click_screen $((X + WIDTH * 3 / 4)) $((Y + 200)) # the panel's first heading: no field
xdotool key End
sleep 1
shot 01-tools
ocr_panel 01-tools Import
read -r ix iy iw ih < <(find_word Import) || true
[ -n "${ix:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "Settings → Tools (MCP) shows no Import button"; }
click_screen $((ix + 240)) $((iy - 60)) # the paste box above it
xdotool type --delay 10 "{\"mcpServers\": {\"words\": {\"command\": \"$ROOT/build/bin/fakemcp\", \"args\": [\"-label\", \"e2e\"]}}}"
sleep 0.3
xdotool key Tab Return
ready=""
for _ in 1 2 3 4 5; do
  sleep 1
  shot 02-ready
  ocr_panel 02-ready Ready lookup_word remove_word
  grep -q "Ready (2 tools)" "$WORK/ocr.txt" && grep -q lookup_word "$WORK/ocr.txt" && grep -q remove_word "$WORK/ocr.txt" &&
    { ready=1; break; }
done
[ -n "$ready" ] || { cat "$WORK/ocr.txt" >&2; fail "the server's row did not reach Ready (2 tools) with lookup_word and remove_word"; }
grep -q "words" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the row does not name the server"; }
echo "e2e: the pasted mcpServers JSON added the server; its row is Ready (2 tools) with both tools ($ART/02-ready.png)"

# 2. A chat: lookup_word runs at once; remove_word (destructive) waits for
# the click in its activity item.
xdotool key Escape
sleep 0.5
send "look up kiwi and remove it"
wait_for "the lookup_word call to reach the server" bash -c "grep -qs 'lookup_word \"kiwi\"' '$SERVER_LOG'/*.log"
sleep 1.5
shot 03-approval
ocr_chat 03-approval Allow lookup_word remove_word words
grep -q "Allow once" "$WORK/ocr.txt" && grep -q remove_word "$WORK/ocr.txt" && grep -q words "$WORK/ocr.txt" ||
  { cat "$WORK/ocr.txt" >&2; fail "the activity item of remove_word does not ask (Allow once) with its server"; }
! grep -q "Not answered" "$WORK/ocr.txt" || fail "the question waiting for the approval is marked Not answered"
! grep -qs remove_word "$SERVER_LOG"/*.log || fail "remove_word ran before it was allowed"
read -r ax ay aw ah < <(find_word Allow) || true
click_screen $((ax + aw)) $((ay + ah / 2))
wait_for "the answer to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 1 ]"
grep -qs 'remove_word "kiwi"' "$SERVER_LOG"/*.log || fail "remove_word did not reach the server after Allow once"
echo "e2e: remove_word waited for Allow once in its activity item, then ran ($ART/03-approval.png)"

sleep 1
shot 04-answer
ocr_chat 04-answer KIWIDONE Allowed words
grep -q "KIWIDONE" "$WORK/ocr.txt" && grep -q "Allowed once" "$WORK/ocr.txt" && grep -q lookup_word "$WORK/ocr.txt" &&
  grep -q words "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the answer, both calls with their server and the decision are not shown"; }
# The results went back to the model under the calls' ids.
results=$(sql "SELECT group_concat(json_extract(m.value, '$.tool_call_id') || '=' || json_extract(m.value, '$.content'), '|')
  FROM api_logs, json_each(api_logs.request_json, '$.messages') AS m
  WHERE api_logs.id = (SELECT max(id) FROM api_logs) AND json_extract(m.value, '$.role') = 'tool'")
[ "$results" = "c_look=FAKEMCP-RESULT kiwi (e2e)|c_rm=FAKEMCP-REMOVED kiwi" ] || fail "the model's last request carried the tool results $results"
echo "e2e: the answer shows under both calls with the server's name; the results reached the model's next request ($ART/04-answer.png)"
echo "e2e: 3 passed, 0 failed"
