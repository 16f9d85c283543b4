#!/usr/bin/env bash
# End-to-end test of versions and search (issue 9) on the built app under
# Xvfb: send a message; press Up in the empty box to edit it and resend —
# the edit becomes version 2/2 and only its branch is shown; the ‹ button
# goes back to version 1/2; after switching to 2/2 again, Ctrl+K searches
# for a word of the first version and Enter lands on it (switching branch).
# Screenshots: .artifacts/e2e-branches/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-branches
mkdir -p "$ART" && rm -f "$ART"/*.png

# The fake model answers "fake reply: <the question>" in a few chunks.
echo '[]' >"$WORK/script.json"
start_fake "$WORK/script.json" -chunks 4 -chunk-delay 20ms
start_app

# shown WORD: is WORD among the chat's messages in the last OCR (not the
# sidebar or the title bar, which show the chat's title)?
shown() { awk -F'\t' -v w="$1" 'index($1, w) && $2 >= 300 && $3 >= 100 { f = 1 } END { exit !f }' "$WORK/ocr.tsv"; }
send "first question alpha"
wait_for "the first reply" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 1 ]"
sleep 0.5

# Up in the empty message box edits the last message; resend it changed.
xdotool key Up
sleep 0.8
xdotool key ctrl+a
xdotool type --delay 40 "second question bravo"
sleep 0.3
xdotool key Return
wait_for "the reply to the edit" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 2 ]"
[ "$(sql "SELECT count(*) FROM messages WHERE role='user'")" = 2 ] || fail "the edit did not make a second user message"
[ "$(sql "SELECT count(DISTINCT coalesce(parent_id, 0)) FROM messages WHERE role='user'")" = 1 ] ||
  fail "the edited message is not a sibling of the first"
[ "$(sql "SELECT content FROM messages WHERE role='user' ORDER BY id LIMIT 1")" = "first question alpha" ] ||
  fail "the first version was overwritten"
sleep 1
shot 01-edited
ocr "$ART/01-edited.png"
shown bravo || { cat "$WORK/ocr.txt" >&2; fail "the edited question is not shown"; }
shown alpha && fail "the first version is still shown beside the edit"
grep -q "2/2" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "no 2/2 version switcher on the edited message"; }
echo "e2e: Up + edit + Enter made version 2/2; only its branch is shown ($ART/01-edited.png)"

# pos_xy: the centre of the "N/2" switcher text in the last OCR.
pos_xy() {
  awk -F'\t' '$1 ~ /[12]\/2/ { print $2, $3, $4, $5; exit }' "$WORK/ocr.tsv"
}
read -r px py pw ph < <(pos_xy) || true
[ -n "${px:-}" ] || fail "the version switcher was not found on screen"
# ‹ and › sit 26 px left and right of the position text's centre.
click_screen $((px + pw / 2 - 26)) $((py + ph / 2))
sleep 1.2
shot 02-version1
ocr "$ART/02-version1.png"
shown alpha && grep -q "1/2" "$WORK/ocr.txt" ||
  { cat "$WORK/ocr.txt" >&2; fail "‹ did not switch to version 1/2"; }
shown bravo && fail "version 2's question is still shown on version 1"
echo "e2e: ‹ switched to version 1/2 with its own reply ($ART/02-version1.png)"

read -r px py pw ph < <(pos_xy) || true
click_screen $((px + pw / 2 + 26)) $((py + ph / 2))
sleep 1.2
shot 03-version2
ocr "$ART/03-version2.png"
shown bravo || { cat "$WORK/ocr.txt" >&2; fail "› did not switch back to version 2/2"; }
echo "e2e: › switched back to 2/2"

# Ctrl+K: search for a word of version 1 and land on it.
xdotool key ctrl+k
sleep 0.8
xdotool type --delay 40 "alpha"
sleep 1.5
shot 04-search
ocr "$ART/04-search.png"
shown alpha || { cat "$WORK/ocr.txt" >&2; fail "the search found nothing for alpha"; }
xdotool key Return
sleep 1.5
shot 05-landed
ocr "$ART/05-landed.png"
shown alpha && grep -q "1/2" "$WORK/ocr.txt" ||
  { cat "$WORK/ocr.txt" >&2; fail "Enter on the hit did not open version 1 of the chat"; }
echo "e2e: Ctrl+K found alpha and Enter landed on it, on version 1/2 ($ART/05-landed.png)"
echo "e2e: 4 passed, 0 failed"
