#!/usr/bin/env bash
# End-to-end test of Print / PDF of a chat (issue 27) in the real window: a
# chat (imported with the CLI before the window starts) is opened, its row's
# export menu is reached with the keyboard and "Print / PDF…" is picked; the
# system print dialog (GTK's, from WebKitGTK) must appear. With "Print to
# File" chosen in it, Print writes a PDF, whose fonts must hold the chat's
# text.
# One app start. Screenshots: .artifacts/e2e-print/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-print
mkdir -p "$ART" && rm -f "$ART"/*.png

export PLAYCHAT_DATA_DIR=$WORK/data
cat >"$WORK/chat.json" <<'JSON'
{"format":"playchat-session","version":3,"exportedAt":"2026-03-01T10:00:00Z",
 "session":{"id":"p","title":"PRINTME","model":"openai/e2e-model","createdAt":"2026-03-01T09:00:00Z","updatedAt":"2026-03-01T09:01:00Z"},
 "memories":[],
 "messages":[{"id":1,"role":"user","content":"吾輩は猫である question","status":"complete","createdAt":"2026-03-01T09:00:00Z"},
             {"id":2,"parentId":1,"role":"assistant","content":"Printed answer PAPERCAT","status":"complete","createdAt":"2026-03-01T09:01:00Z"}]}
JSON
"$BIN" sessions import "$WORK/chat.json" >/dev/null || fail "could not import the chat"

echo '[{"chunks": ["never asked: the test sends no turn"]}]' >"$WORK/script.json"
start_fake "$WORK/script.json"
# GTK's "Print to File" writes into the current folder by default.
cd "$WORK"
start_app
shot 01-start
# The one chat's row is the first of the list (under "Today"); its icons
# show on hover and end 25 px from the list's right edge (260 px from the
# window's) at 24 px steps — ✕, then ⤓.
eval "$(xdotool getwindowgeometry --shell "$WID" | grep -E '^(X|Y)=')"
click_screen $((X + 60)) $((Y + 165))
sleep 1
click_screen $((X + 260 - 49)) $((Y + 172))
sleep 0.5
shot 02-menu
# The menu's items, under the button: Markdown, HTML, JSON, Print / PDF.
click_screen $((X + 88)) $((Y + 319))
DLG=""
for _ in $(seq 50); do
  DLG=$(xdotool search --onlyvisible --name '^Print$' 2>/dev/null | tail -1 || true)
  [ -n "$DLG" ] && break
  sleep 0.2
done
sleep 1
shot 03-print-dialog
[ -n "$DLG" ] || fail "no print dialog appeared ($ART/03-print-dialog.png)"
echo "e2e: the print dialog is open (window $DLG, $ART/03-print-dialog.png)"

# Print to File (the dialog's first printer here), then Print: GTK writes
# output.pdf into the current folder.
eval "$(xdotool getwindowgeometry --shell "$DLG" | grep -E '^(X|Y)=' | sed 's/^/D/')"
click_screen $((DX + 82)) $((DY + 86))
sleep 0.5
click_screen $((DX + 579)) $((DY + 486))
wait_for "the PDF to be written" test -s "$WORK/output.pdf"
sleep 1
shot 04-printed
cp "$WORK/output.pdf" "$ART/printed.pdf"
head -c 5 "$WORK/output.pdf" | grep -q '%PDF-' || fail "output.pdf is not a PDF"
# The chat's text is in it: the characters its fonts map (ToUnicode) hold
# the question's kanji (no PDF reader is needed).
python3 - "$WORK/output.pdf" <<'PY' || fail "the PDF does not hold the chat's text ($ART/printed.pdf)"
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
chars = set()
for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
    try:
        s = zlib.decompress(m.group(1))
    except zlib.error:
        continue
    for _, u in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", s):
        try:
            chars.add(bytes.fromhex(u.decode()).decode("utf-16-be"))
        except ValueError:
            pass
sys.exit(0 if set("吾輩猫") <= chars else 1)
PY

echo "e2e: Print to File wrote a PDF of $(stat -c %s "$WORK/output.pdf") bytes"
