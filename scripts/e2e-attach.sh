#!/usr/bin/env bash
# End-to-end test of attachments (issue 25) in the real window: a PNG of
# 3000×1500 is dragged from a file manager (scripts/dragsource.py) onto the
# message box — the Knowledge panel must not take it — and a second image
# is pasted from the clipboard (xclip) into the box; both show as chips.
# The message is sent: the model's request (api_logs) carries two image_url
# parts with PNG data URLs, the stored files are downscaled to 2048 px on
# the long side, and the history shows the images after the reply.
# Then a PDF (with a text layer, Latin and Japanese, two pages) is dropped
# on the message box and asked about: its text is in the model's request as
# an attachment block. The app is started again and the chat opened: the
# history shows both images and the PDF's chip.
# Screenshots: .artifacts/e2e-attach/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-attach
mkdir -p "$ART" && rm -f "$ART"/*.png

cat >"$WORK/script.json" <<'JSON'
[{"chunks": ["I see two pictures: ", "a red one and a blue one."]},
 {"chunks": ["The report says the lighthouse ", "is inspected in March."]}]
JSON
SRC=$WORK/files
mkdir -p "$SRC"
convert -size 3000x1500 xc:'#d03030' "$SRC/red-wide.png"
convert -size 320x240 xc:'#3050d0' "$SRC/blue.png"
"$ROOT/build/bin/makepdf" "$SRC/lighthouse.pdf" "Quarterly lighthouse report|灯台の点検は三月です" "Second page of the report|二ページ目の本文"

start_fake "$WORK/script.json"
start_app
geo=$(xdotool getwindowgeometry --shell "$WID")
WX=$(sed -n 's/^X=//p' <<<"$geo") WY=$(sed -n 's/^Y=//p' <<<"$geo")
WW=$(sed -n 's/^WIDTH=//p' <<<"$geo") WH=$(sed -n 's/^HEIGHT=//p' <<<"$geo")
shot 00-start

# 1. Drag the wide PNG from a "file manager" onto the message box.
drag_source 01-drop "$WORK/drag.out" $((WX + WW - 160)) $((WY + 80)) files "file://$SRC/red-wide.png"
DRAG=$SPAWNED
drag_gesture 01-drop $((WX + WW * 2 / 5)) $((WY + WH - 60))
shot 01-dragging
xdotool mouseup 1
for _ in $(seq 100); do grep -q DRAGSOURCE_END "$WORK/drag.out" && break; sleep 0.1; done
stop_group "$DRAG"
# seen NAME WORD: shots until OCR reads WORD (the file is being prepared:
# decoded, downscaled and re-encoded; a loaded machine takes seconds).
seen() {
  local try
  for try in 1 2 3 4; do
    sleep 1.5
    shot "$1"
    ocr "$ART/$1.png" "$2"
    grep -q "$2" "$WORK/ocr.txt" && return 0
  done
  return 1
}
seen 02-dropped red-wide || { cat "$WORK/ocr.txt" >&2; fail "no chip for the dropped file above the message box"; }
[ -z "$(cd "$WORK/data/knowledge_base" 2>/dev/null && find . -name 'red-wide*')" ] || fail "the Knowledge panel took the drop"
echo "e2e: the dropped PNG shows as a chip above the message box (not in the knowledge base)"

# 2. Paste an image from the clipboard into the message box.
xclip -selection clipboard -t image/png -i "$SRC/blue.png" &
CLIP=$!
sleep 0.5
xdotool mousemove --window "$WID" $((WW * 2 / 5)) $((WH - 60)) click 1
sleep 0.3
xdotool key ctrl+v
seen 03-pasted pasted || { cat "$WORK/ocr.txt" >&2; fail "no chip for the pasted image"; }
kill "$CLIP" 2>/dev/null || true
echo "e2e: the pasted image shows as a second chip"

# 3. Send: the request carries both images as image_url parts.
send "what colours are these"
wait_for "the reply" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role = 'assistant' AND status = 'complete'\")\" = 1 ]"
req=$(request_with 'what colours are these')
n=$(grep -o '"type":"image_url"' <<<"$req" | wc -l)
[ "$n" = 2 ] || fail "the request has $n image parts, want 2: ${req:0:600}"
grep -q '"url":"data:image/png;base64,' <<<"$req" || fail "no PNG data URL in the request"
grep -q '"text":"what colours are these"' <<<"$req" || fail "the typed text is not a text part of the request"
dims=$(sql "SELECT group_concat(d, ' ') FROM (SELECT a.width || 'x' || a.height AS d FROM message_attachments l JOIN attachments a USING (sha256) ORDER BY l.position)")
[ "$dims" = "2048x1024 320x240" ] || fail "stored images are $dims, want 2048x1024 320x240"
[ "$(find "$WORK/data/attachments" -type f | wc -l)" = 2 ] || fail "not two files in the data folder's attachments"
echo "e2e: the model's request has both image parts (PNG data URLs); the wide one was downscaled to 2048x1024"
sleep 1.5
shot 04-answered
ocr "$ART/04-answered.png" blue
grep -q "red one and a blue one" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the reply is not shown"; }
echo "e2e: the reply and the images show in the history ($ART/04-answered.png)"

# 4. Drop a PDF on the message box and ask about it: its text (both pages,
# Latin and Japanese) is in the request as an attachment block.
drag_source 05-pdf "$WORK/drag2.out" $((WX + WW - 160)) $((WY + 80)) files "file://$SRC/lighthouse.pdf"
DRAG=$SPAWNED
drag_gesture 05-pdf $((WX + WW * 2 / 5)) $((WY + WH - 60))
xdotool mouseup 1
for _ in $(seq 100); do grep -q DRAGSOURCE_END "$WORK/drag2.out" && break; sleep 0.1; done
stop_group "$DRAG"
seen 05-pdf-chip lighthouse || { cat "$WORK/ocr.txt" >&2; fail "no chip for the dropped PDF above the message box"; }
send "when is the lighthouse inspected"
wait_for "the second reply" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role = 'assistant' AND status = 'complete'\")\" = 2 ]"
req=$(request_with 'when is the lighthouse inspected')
for want in 'lighthouse.pdf' 'application/pdf' 'Quarterly lighthouse report' '灯台の点検は三月です' 'Second page of the report' '二ページ目の本文' 'when is the lighthouse inspected'; do
  grep -qF "$want" <<<"$req" || fail "the request does not carry \"$want\": ${req:0:800}"
done
kinds=$(sql "SELECT group_concat(a.kind, ' ') FROM message_attachments l JOIN attachments a USING (sha256) ORDER BY l.message_id, l.position")
grep -q pdf <<<"$kinds" || fail "no stored PDF attachment (kinds: $kinds)"
echo "e2e: the dropped PDF's text (two pages, Latin and Japanese) is in the model's request"

# 5. Start again and open the chat: the history shows both images and the PDF.
stop_app
start_app
xdotool mousemove --window "$WID" 130 142 click 1
sleep 2
shot 06-reopened
ocr "$ART/06-reopened.png" lighthouse
grep -q "lighthouse" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the PDF's chip is not in the history after a new start"; }
grep -q "inspected in March" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the PDF's reply is not in the history after a new start"; }
imgs=$(sql "SELECT count(*) FROM message_attachments l JOIN attachments a USING (sha256) WHERE a.kind = 'image'")
[ "$imgs" = 2 ] || fail "the history's first message lost its images ($imgs linked)"
echo "e2e: after a new start the chat shows the PDF's chip and its reply ($ART/06-reopened.png)"
echo "e2e: 5 passed, 0 failed"
