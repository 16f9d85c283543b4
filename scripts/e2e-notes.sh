#!/usr/bin/env bash
# End-to-end test of the shared notes: the fake model creates three pages
# with parallel write_note calls (sections WORK and TRAVEL); the notes panel
# is opened in the real window and a tab is dragged with the mouse from
# TRAVEL onto the left half of a WORK tab, which must move it into WORK right
# before that tab (one reorder, stored). Screenshots: .artifacts/e2e-notes/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-notes
mkdir -p "$ART" && rm -f "$ART"/*.png

# One streamed chunk with three parallel write_note calls, then the answer.
cat >"$WORK/script.json" <<'JSON'
[{"tool_call_chunks": ["[{\"index\":0,\"id\":\"c0\",\"type\":\"function\",\"function\":{\"name\":\"write_note\",\"arguments\":\"{\\\"mode\\\":\\\"create\\\",\\\"title\\\":\\\"ALPHA\\\",\\\"content\\\":\\\"page A\\\",\\\"section\\\":\\\"WORK\\\"}\"}},{\"index\":1,\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"write_note\",\"arguments\":\"{\\\"mode\\\":\\\"create\\\",\\\"title\\\":\\\"BRAVO\\\",\\\"content\\\":\\\"page B\\\",\\\"section\\\":\\\"WORK\\\"}\"}},{\"index\":2,\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"write_note\",\"arguments\":\"{\\\"mode\\\":\\\"create\\\",\\\"title\\\":\\\"CHARLIE\\\",\\\"content\\\":\\\"page C\\\",\\\"section\\\":\\\"TRAVEL\\\"}\"}}]"]},
 {"chunks": ["Created three pages."]}]
JSON
start_fake "$WORK/script.json"
start_app

send "make three pages"
pages() { sql "SELECT group_concat(title || ':' || section, ' ') FROM (SELECT * FROM note_pages ORDER BY position)"; }
wait_for "the model's write_note calls" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' 'SELECT count(*) FROM note_pages')\" = 3 ]"
[ "$(pages)" = "ALPHA:WORK BRAVO:WORK CHARLIE:TRAVEL" ] || fail "pages after the tool calls: $(pages)"
sleep 1
shot 01-created
ocr "$ART/01-created.png"
grep -q "Write note" "$WORK/ocr.txt" || fail "the tool activity is not shown above the reply"
echo "e2e: the model created three pages; the activity list shows the calls"

# Open the notes panel from the header.
read -r x y w h < <(find_word Notes) || true
[ -n "${x:-}" ] || fail "no Notes button in the header"
xdotool mousemove $((x + w / 2)) $((y + h / 2)) click 1
sleep 1.5
shot 02-panel
ocr "$ART/02-panel.png"
read -r cx cy cw ch < <(find_word CHARLIE) || true
read -r bx by bw bh < <(find_word BRAVO) || true
[ -n "${cx:-}" ] && [ -n "${bx:-}" ] && [ $((by - cy)) -lt 10 ] && [ $((cy - by)) -lt 10 ] ||
  { cat "$WORK/ocr.tsv" >&2; fail "the CHARLIE and BRAVO tabs were not found side by side in the notes panel"; }
echo "e2e: notes panel open (CHARLIE tab at $cx,$cy; BRAVO tab at $bx,$by)"

# Drag CHARLIE (TRAVEL) onto the left half of BRAVO (WORK) with real mouse
# events: it must land before BRAVO and take its section.
xdotool mousemove $((cx + cw / 2)) $((cy + ch / 2)) mousedown 1
tx=$((bx + bw / 5)) ty=$((by + bh / 2))
for i in 1 2 3 4 5 6 7 8 9 10; do
  xdotool mousemove $((cx + cw / 2 + (tx - cx - cw / 2) * i / 10)) $ty
  sleep 0.05
done
sleep 0.3
shot 03-dragging
xdotool mouseup 1
wait_for "the reorder to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT group_concat(title || ':' || section, ' ') FROM (SELECT * FROM note_pages ORDER BY position)\")\" = 'ALPHA:WORK CHARLIE:WORK BRAVO:WORK' ]"
sleep 0.5
shot 04-dropped
echo "e2e: dragging CHARLIE onto BRAVO's left half moved it into WORK before BRAVO ($ART/04-dropped.png)"
echo "e2e: 2 passed, 0 failed"
