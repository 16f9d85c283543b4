#!/usr/bin/env bash
# End-to-end test of organising, exporting and backing up (issue 27), in the
# real window: three chats (imported with the CLI before the window starts);
# in the window, ALPHA is pinned (its row's pin button, reached with Tab), a
# folder PROJECTS is made with New folder and BRAVO is dragged onto it with
# the mouse. Where a system file dialog would appear, the CLI stands in:
# BRAVO is exported as Markdown (the file is checked) and a backup is taken
# while the window runs. Then the window quits, the data dir is deleted, the
# backup is restored with `playchat backup restore --yes`, and the window
# started again shows the pin, the folder with BRAVO in it, and BRAVO's
# messages. Two app starts. Screenshots: .artifacts/e2e-organise/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-organise
mkdir -p "$ART" && rm -f "$ART"/*.png

# A chat document with one question and one answer; CHARLIE is the newest.
chat() { # ID TITLE DAY QUESTION ANSWER
  cat <<JSON
{"format":"playchat-session","version":3,"exportedAt":"2026-03-0$3T10:00:00Z",
 "session":{"id":"$1","title":"$2","model":"openai/e2e-model","createdAt":"2026-03-0$3T09:00:00Z","updatedAt":"2026-03-0$3T09:01:00Z"},
 "memories":[],
 "messages":[{"id":1,"role":"user","content":"$4","status":"complete","createdAt":"2026-03-0$3T09:00:00Z"},
             {"id":2,"parentId":1,"role":"assistant","content":"$5","status":"complete","createdAt":"2026-03-0$3T09:01:00Z"}]}
JSON
}
export PLAYCHAT_DATA_DIR=$WORK/data BACKUP_DIR=$WORK/backups
chat a ALPHA 1 "alpha question" "Alpha answer" >"$WORK/a.json"
chat b BRAVO 2 "bravo question about tables" "Bravo answer with \`code\` and \$x^2\$ kept as source" >"$WORK/b.json"
chat c CHARLIE 3 "charlie question" "Charlie answer" >"$WORK/c.json"
for f in a b c; do "$BIN" sessions import "$WORK/$f.json" >/dev/null || fail "could not import $f.json"; done
# in_list WORD [bottom]: "x y w h" of WORD in the chat list (the left
# 300 px of the screen) in the last ocr, the topmost (or the bottommost);
# also where OCR glued it to a word beside it ("Newfolder").
in_list() {
  local order=-n
  [ "${2:-}" = bottom ] && order=-rn
  awk -F'\t' -v w="$1" 'index($1, w) > 0 && length($1) <= length(w) + 4 && $2 < 300 { print $3, $2, $4, $5 }' "$WORK/ocr.tsv" | sort $order | head -1 |
    awk '{ print $2, $1, $3, $4 }'
}
id_of() { sql "SELECT id FROM sessions WHERE title = '$1'"; }
ALPHA=$(id_of ALPHA) BRAVO=$(id_of BRAVO)

echo '[{"chunks": ["never asked: the test sends no turn"]}]' >"$WORK/script.json"
start_fake "$WORK/script.json"
start_app
shot 01-start
ocr "$ART/01-start.png" ALPHA BRAVO CHARLIE folder
read -r ax ay aw ah < <(in_list ALPHA) || true
read -r nx ny nw nh < <(in_list folder bottom) || true
[ -n "${ax:-}" ] && [ -n "${nx:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "the chat list does not show ALPHA and New folder ($ART/01-start.png)"; }

# Pin ALPHA: its row takes the focus, then Tab reaches the tick box and the pin.
click_screen $((ax + aw / 2)) $((ay + ah / 2))
sleep 0.5
xdotool key Tab Tab space
wait_for "ALPHA to be pinned" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM session_places WHERE session_id = '$ALPHA' AND pinned_at IS NOT NULL\")\" = 1 ]"
echo "e2e: ALPHA is pinned (its row's pin button)"

# New folder PROJECTS (the button at the bottom of the list).
click_screen $((nx + nw / 2)) $((ny + nh / 2))
sleep 0.5
xdotool type --delay 40 PROJECTS
xdotool key Return
wait_for "the folder to be made" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT name FROM folders\")\" = PROJECTS ]"
sleep 1
shot 02-pinned-folder
ocr "$ART/02-pinned-folder.png" PROJECTS BRAVO
read -r px py pw ph < <(in_list PROJECTS) || true
read -r bx by bw bh < <(in_list BRAVO) || true
[ -n "${px:-}" ] && [ -n "${bx:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no PROJECTS folder or BRAVO row in the list ($ART/02-pinned-folder.png)"; }

# Drag BRAVO onto the folder with real mouse events.
xdotool mousemove $((bx + bw / 2)) $((by + bh / 2)) mousedown 1
for i in 1 2 3 4 5 6 7 8 9 10; do
  xdotool mousemove $((bx + bw / 2 + (px - bx) * i / 10)) $((by + bh / 2 + (py - by) * i / 10))
  sleep 0.05
done
sleep 0.3
xdotool mouseup 1
wait_for "BRAVO to move into PROJECTS" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT f.name FROM session_places p JOIN folders f ON f.id = p.folder_id WHERE p.session_id = '$BRAVO'\")\" = PROJECTS ]"
sleep 1
shot 03-moved
echo "e2e: BRAVO was dragged into PROJECTS ($ART/03-moved.png)"

# Export BRAVO as Markdown and take a backup, both while the window runs.
"$BIN" sessions export "$BRAVO" --format md -o "$WORK/bravo.md" || fail "the Markdown export failed"
grep -q '^title: "BRAVO"' "$WORK/bravo.md" && grep -q 'bravo question about tables' "$WORK/bravo.md" &&
  grep -qF 'Bravo answer with `code` and $x^2$ kept as source' "$WORK/bravo.md" ||
  { cat "$WORK/bravo.md" >&2; fail "the Markdown export lacks the front matter or the messages"; }
ARCHIVE=$("$BIN" backup create 2>"$WORK/backup.err") || { cat "$WORK/backup.err" >&2; fail "the backup failed"; }
[ -f "$ARCHIVE" ] || fail "no backup archive at $ARCHIVE"
echo "e2e: exported BRAVO as Markdown; backed up to $(basename "$ARCHIVE") ($(cat "$WORK/backup.err"))"

# Lose everything, restore, start again.
stop_app
remove_dir "$WORK/data"
[ ! -e "$WORK/data" ] || fail "the data dir could not be removed"
"$BIN" backup restore "$ARCHIVE" --yes 2>"$WORK/restore.err" || { cat "$WORK/restore.err" >&2; fail "the restore failed"; }
[ "$(sql "SELECT group_concat(title, ' ') FROM (SELECT title FROM sessions ORDER BY title)")" = "ALPHA BRAVO CHARLIE" ] ||
  fail "the restored database has other chats: $(sql 'SELECT title FROM sessions')"
[ "$(sql 'SELECT count(*) FROM messages')" = 6 ] || fail "the restored database has $(sql 'SELECT count(*) FROM messages') messages, not 6"
echo "e2e: restored after the data dir was deleted ($(tail -1 "$WORK/restore.err"))"

start_app
# Open BRAVO (inside PROJECTS) so its messages show beside the list.
shot 04-restored
ocr "$ART/04-restored.png" Pinned PROJECTS BRAVO ALPHA
read -r bx by bw bh < <(in_list BRAVO) || true
[ -n "${bx:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no BRAVO row after the restore ($ART/04-restored.png)"; }
click_screen $((bx + bw / 2)) $((by + bh / 2))
sleep 1.5
shot 05-bravo
ocr "$ART/05-bravo.png" Pinned PROJECTS ALPHA BRAVO tables
for w in Pinned PROJECTS ALPHA BRAVO tables; do
  grep -q "$w" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "after the restore the window does not show $w ($ART/05-bravo.png)"; }
done
# The list's order: the pinned heading, ALPHA, then the folder, then BRAVO in it.
y_of() { in_list "$1" | awk '{ print $2 }'; }
yp=$(y_of Pinned) ya=$(y_of ALPHA) yf=$(y_of PROJECTS) yb=$(y_of BRAVO)
[ -n "$yp" ] && [ -n "$ya" ] && [ -n "$yf" ] && [ -n "$yb" ] && [ "$yp" -lt "$ya" ] && [ "$ya" -lt "$yf" ] && [ "$yf" -lt "$yb" ] ||
  { cat "$WORK/ocr.tsv" >&2; fail "the list is not Pinned, ALPHA, PROJECTS, BRAVO (y $yp $ya $yf $yb) ($ART/05-bravo.png)"; }
echo "e2e: the window shows ALPHA pinned, BRAVO in PROJECTS and BRAVO's messages ($ART/05-bravo.png)"
echo "e2e: 4 passed, 0 failed"
