#!/usr/bin/env bash
# End-to-end test of the main chat flow: the built desktop binary runs under
# Xvfb against the fake OpenAI-compatible server; messages are typed into
# the real window with xdotool; the test checks what is stored and, by
# screenshot + OCR, what the window shows. Screenshots: .artifacts/e2e/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e
mkdir -p "$ART" && rm -f "$ART"/*.png
REPLY="E2E REPLY streamed from the fake model"

# Turn 1 streams the reply in 7 chunks; turn 2 meets a server that answers
# 500 to every attempt; turn 3 (after the failure) gets the default reply.
cat >"$WORK/script.json" <<JSON
[{"chunks": ["E2E ", "REPLY ", "streamed ", "from ", "the ", "fake ", "model"], "chunk_delay": "60ms"},
 {"status": 500}, {"status": 500}, {"status": 500}]
JSON
start_fake "$WORK/script.json" -reply "$REPLY" -chunks 8 -chunk-delay 30ms
start_app
shot 01-open

send "hello from the e2e test"
assistant() { sql "SELECT count(*) FROM messages WHERE role='assistant' AND status='$1' AND content='$2'" | grep -qx "$3"; }
wait_for "the streamed reply to be stored" assistant complete "$REPLY" 1
[ "$(sql "SELECT content FROM messages WHERE role='user'")" = "hello from the e2e test" ] || fail "the typed message was not stored as typed"
echo "e2e: the typed message and the streamed reply are stored"
sleep 1
shot 02-reply
ocr "$ART/02-reply.png"
grep -qi "streamed from the fake" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the reply is not visible in the window"; }
grep -qi "hello from the e2e" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the user's message is not visible in the window"; }
echo "e2e: the reply is visible in the window ($ART/02-reply.png)"

# A failing server: the message is kept, a toast shows the error.
send "this one fails"
wait_for "the failed reply to be stored" assistant error "" 1
[ "$(sql "SELECT count(*) FROM messages WHERE role='user' AND content='this one fails'")" = 1 ] || fail "the message sent to a failing server was lost"
# The error shows twice: on the stored reply and in the toast (which fades
# in and stays 8 s). Screenshots are taken in a burst first and read after,
# so the slow OCR never makes the test look too late.
seen=""
for i in 1 2 3 4 5 6 7 8 9 10; do
  sleep 0.4
  shot "03-error-$i"
done
for i in 1 2 3 4 5 6 7 8 9 10; do
  ocr "$ART/03-error-$i.png"
  # two separate lines of the screen report the 500 (the reply, the toast)
  rows=$(awk -F'\t' '$1 ~ /500|returned|server/ { print $3 }' "$WORK/ocr.tsv" | sort -n |
    awk 'NR == 1 || $1 - last > 15 { n++ } { last = $1 } END { print n + 0 }')
  if [ "$rows" -ge 2 ]; then seen=1; cp "$ART/03-error-$i.png" "$ART/03-error.png"; break; fi
done
[ -n "$seen" ] || { cat "$WORK/ocr.txt" >&2; fail "no error toast for the failed turn (screens: $ART/03-error-*.png)"; }
rm -f "$ART"/03-error-*.png
echo "e2e: a failing server keeps the message and shows the error ($ART/03-error.png)"

# The next turn works, typed in Japanese.
send "日本語でもう一度"
wait_for "the reply after the failure" assistant complete "$REPLY" 2
[ "$(sql "SELECT count(*) FROM messages WHERE role='user' AND content='日本語でもう一度'")" = 1 ] || fail "the Japanese message was not stored as typed"
sleep 0.5
shot 04-recovered
echo "e2e: the next turn works ($ART/04-recovered.png)"
echo "e2e: 3 passed, 0 failed"
