#!/usr/bin/env bash
# End-to-end test of drops onto the window (issue 21) on the built app under
# Xvfb, with real drags: a small GTK drag source (scripts/dragsource.py)
# offers what a file manager offers (text/uri-list of files and a folder),
# plain text, or a browser's link, and xdotool drags it onto the window
# (press on the source, move in steps, release). Dropped on:
#   1. the Knowledge panel — the files and the folder are copied into the
#      knowledge base and the report card shows;
#   2. the sidebar, the chat area and the Settings dialog — files, a link
#      and text are refused there (the source sees the drop refused); on the
#      message box files are attached (issue 25), a link attaches nothing
#      and text is inserted.
# After every drop the window must still be the app (its header and sidebar
# read by OCR, the dropped file's text nowhere), nothing may have reached the
# link's local listener, and the page itself must have kept the drop: the
# UI process's navigation guard (app/webview/guard.go) reports nothing. At
# the end the dropped text is sent and the reply stored. Screenshots:
# .artifacts/e2e-drops/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-drops
mkdir -p "$ART" && rm -f "$ART"/*.png

cat >"$WORK/script.json" <<'JSON'
[{"reply": "Received the dropped words."}]
JSON
start_fake "$WORK/script.json"

# A listener the dropped link points at: a window that followed the link
# would ask it for the page.
spawn "$WORK/count.out" "$ROOT/scripts/countserver.py"
for _ in $(seq 50); do grep -q COUNTSERVER_URL "$WORK/count.out" && break; sleep 0.1; done
LISTENER=$(sed -n 's/^COUNTSERVER_URL=//p' "$WORK/count.out")
[ -n "$LISTENER" ] || fail "the listener did not start"

# What is dropped: two files and a folder, as a file manager offers them.
SRC=$WORK/drop
mkdir -p "$SRC/trip"
printf '# Dropped alpha\n\nZEBRAFISH lives here.\n' >"$SRC/alpha.md"
printf 'ZEBRAFISH plain notes\n' >"$SRC/beta.txt"
printf '# Gamma\n\nZEBRAFISH in a folder.\n' >"$SRC/trip/gamma.md"
FILES=("file://$SRC/alpha.md" "file://$SRC/beta.txt" "file://$SRC/trip")
KB=$WORK/data/knowledge_base

start_app
geo=$(xdotool getwindowgeometry --shell "$WID")
WX=$(sed -n 's/^X=//p' <<<"$geo") WY=$(sed -n 's/^Y=//p' <<<"$geo")
WW=$(sed -n 's/^WIDTH=//p' <<<"$geo") WH=$(sed -n 's/^HEIGHT=//p' <<<"$geo")

# drop NAME KIND X Y ITEM…: starts a drag source offering KIND (files, text,
# url) with ITEMs below the window's bottom-right corner, drags it onto
# screen X Y with real pointer events and releases it there. Sets
# DROP_REFUSED to 1 when the window refused the drop.
drop() {
  local name=$1 kind=$2 tx=$3 ty=$4
  shift 4
  drag_source "$name" "$WORK/drag.out" $((WX + WW - 140)) $((WY + WH - 26)) "$kind" "$@"
  local pid=$SPAWNED
  drag_gesture "$name" "$tx" "$ty"
  shot "$name-over"
  xdotool mouseup 1
  for _ in $(seq 100); do grep -q DRAGSOURCE_END "$WORK/drag.out" && break; sleep 0.1; done
  grep -q DRAGSOURCE_END "$WORK/drag.out" || fail "$name: the drag did not end (the window did not answer the drop)"
  DROP_REFUSED=""
  grep -q DRAGSOURCE_FAILED "$WORK/drag.out" && DROP_REFUSED=1
  stop_group "$pid"
  sleep 1.5
}

# still_app NAME [WORD…]: the window still shows the app (the WORDs, by
# default the sidebar's and the header's), not a dropped file or page;
# nothing reached the listener; the page kept the drop itself (the UI
# process refused no navigation).
still_app() {
  local name=$1 word
  shift
  [ $# -gt 0 ] || set -- playchat Settings Knowledge
  shot "$name"
  ocr "$ART/$name.png" "$@"
  for word in "$@"; do
    grep -q "$word" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "$name: the window no longer shows the app ($word is gone)"; }
  done
  grep -q "lives here" "$WORK/ocr.txt" && fail "$name: the window shows the dropped file"
  grep -q REQUEST "$WORK/count.out" && fail "$name: the window loaded the dropped link ($(grep -c REQUEST "$WORK/count.out") requests)"
  grep -q "the window refused to" "$WORK/app.log" &&
    fail "$name: the page let WebKit try to load the drop (the UI process had to refuse: $(grep 'the window refused' "$WORK/app.log" | head -1))"
  return 0
}

kb_files() { (cd "$KB" && find . -type f -name '*.md' ! -name 'playchat-guide.md' | sort | tr '\n' ' '); }

# 1. The Knowledge panel takes the files and the folder.
shot 00-start
ocr "$ART/00-start.png"
read -r x y w h < <(find_word Knowledge) || true
[ -n "${x:-}" ] || fail "no Knowledge button in the header"
click_screen $((x + w / 2)) $((y + h / 2))
sleep 2
drop 01-kb files $((WX + 220)) $((WY + 380)) "${FILES[@]}"
[ -z "$DROP_REFUSED" ] || fail "the Knowledge panel refused the files"
ocr "$ART/01-kb-over.png"
grep -q "Drop here to copy" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the Knowledge panel showed no drop hint while the files were over it"; }
wait_for "the dropped files to be copied" bash -c "[ \"\$(cd '$KB' && find . -type f -name '*.md' ! -name playchat-guide.md | sort | tr '\n' ' ')\" = './alpha.md ./beta.md ./trip/gamma.md ' ]"
sleep 1
shot 01-kb-dropped
ocr "$ART/01-kb-dropped.png"
grep -q "Copied 3 documents" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "no report card after the drop on the Knowledge panel"; }
grep -q "Knowledge base" "$WORK/ocr.txt" || fail "the Knowledge panel is gone after the drop"
grep -q "lives here" "$WORK/ocr.txt" && fail "the window shows the dropped file"
grep -q "the window refused to" "$WORK/app.log" && fail "the page let WebKit try to load the files dropped on the Knowledge panel"
echo "e2e: the Knowledge panel copied the dropped files and folder ($(kb_files)) and shows its report ($ART/01-kb-dropped.png)"
xdotool key Escape
sleep 1
before=$(kb_files)

# 2. Everywhere else the window ignores what it does not take.
still_app 02-closed
read -r mx my mw mh < <(find_word Message) || true
[ -n "${mx:-}" ] || fail "no message box"
MSG_X=$((mx + 60)) MSG_Y=$((my + mh / 2))
SIDE_X=$((WX + 130)) SIDE_Y=$((WY + 420))
CHAT_X=$((WX + WW / 2 + 100)) CHAT_Y=$((WY + WH / 2))
cases=(
  "04-files-sidebar files $SIDE_X $SIDE_Y"
  "05-files-chat files $CHAT_X $CHAT_Y"
  "06-link-chat url $CHAT_X $CHAT_Y"
  "08-link-sidebar url $SIDE_X $SIDE_Y"
  "09-text-chat text $CHAT_X $CHAT_Y"
)
for c in "${cases[@]}"; do
  read -r name kind tx ty <<<"$c"
  case $kind in
  files) items=("${FILES[@]}") ;;
  url) items=("$LISTENER/dropped-link") ;;
  text) items=("words dropped nowhere") ;;
  esac
  drop "$name" "$kind" "$tx" "$ty" "${items[@]}"
  [ -n "$DROP_REFUSED" ] || fail "$name: the window took a $kind drop it has no use for"
  still_app "$name-after"
  echo "e2e: $name: refused; the window is still the app ($ART/$name-after.png)"
done
[ "$(kb_files)" = "$before" ] || fail "a drop outside the Knowledge panel changed the knowledge base: $(kb_files)"

# 2b. The message box is a drop zone of its own (issue 25): files dropped
# there are attached (chips above the box), never copied into the
# knowledge base; a link dropped there is kept by the page (nothing loads),
# attaches nothing and says that only files can be attached. e2e-attach.sh
# sends such files.
drop 03-files-message files "$MSG_X" "$MSG_Y" "${FILES[@]}"
[ -z "$DROP_REFUSED" ] || fail "03-files-message: the message box refused files"
still_app 03-files-message-after playchat Settings Knowledge alpha.md beta.txt
grep -q "alpha.md" "$WORK/ocr.txt" && grep -q "beta.txt" "$WORK/ocr.txt" ||
  { cat "$WORK/ocr.txt" >&2; fail "03-files-message: no chips for the dropped files"; }
echo "e2e: 03-files-message: attached as chips; the window is still the app ($ART/03-files-message-after.png)"
drop 07-link-message url "$MSG_X" "$MSG_Y" "$LISTENER/dropped-link"
still_app 07-link-message-after playchat Settings Knowledge attached
grep -q "dropped-link" "$WORK/ocr.txt" && fail "07-link-message: the link was attached or inserted"
grep -qi "only files can be attached" "$WORK/ocr.txt" ||
  { cat "$WORK/ocr.txt" >&2; fail "07-link-message: the drop of a link did not say that only files can be attached"; }
echo "e2e: 07-link-message: nothing attached, nothing loaded, and the window said only files can be attached ($ART/07-link-message-after.png)"
[ "$(kb_files)" = "$before" ] || fail "a drop on the message box changed the knowledge base: $(kb_files)"

# 3. An open dialog: Settings — files on its text, a link on its model field.
xdotool key ctrl+comma
sleep 1.5
shot 10-settings
ocr "$ART/10-settings.png"
read -r fx fy fw fh < <(find_word DEFAULT_MODEL) || true
[ -n "${fx:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "Settings did not open (no DEFAULT_MODEL field)"; }
drop 10-files-settings files $((WX + WW * 3 / 4)) $((WY + WH / 2)) "${FILES[@]}"
[ -n "$DROP_REFUSED" ] || fail "the Settings dialog took a files drop"
drop 11-link-settings url $((fx + fw / 2)) $((fy + fh / 2 + 32)) "$LISTENER/dropped-on-settings"
[ -n "$DROP_REFUSED" ] || fail "the Settings dialog's model field took a link drop"
still_app 11-settings-after playchat Settings DEFAULT_MODEL
grep -q "dropped-on-settings" "$WORK/ocr.txt" && fail "the link was inserted into the model field"
echo "e2e: the Settings dialog refused files and a link; the window is still the app ($ART/11-settings-after.png)"
xdotool key Escape
sleep 1

# 4. Text dropped on the message box is inserted; sending it proves the page
# is alive and the text arrived whole.
drop 12-text-message text "$MSG_X" "$MSG_Y" "DROPPED words"
[ -z "$DROP_REFUSED" ] || fail "the message box refused dropped text"
still_app 12-text-message-after
xdotool mousemove "$MSG_X" "$MSG_Y" click 1
sleep 0.3
xdotool key End Return
wait_for "the dropped text to be sent and answered" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 1 ]"
sent=$(sql "SELECT content FROM messages WHERE role='user'")
[ "$sent" = "DROPPED words" ] || fail "the message sent is \"$sent\", not the dropped text"
sleep 1
still_app 13-sent
grep -q "Received the dropped" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the reply is not shown"; }
echo "e2e: text dropped on the message box was inserted, sent and answered ($ART/13-sent.png)"
[ "$(grep -c REQUEST "$WORK/count.out" || true)" = 0 ] || fail "the link's listener was asked"
echo "e2e: 13 drops, the link's listener was asked 0 times"
echo "e2e: 4 passed, 0 failed"
