#!/usr/bin/env bash
# End-to-end test of the main flow: the built desktop binary runs under Xvfb
# against the fake OpenAI-compatible server; a message is typed into the real
# window with xdotool; the test waits for the streamed reply to be stored and
# to be visible in the window (screenshot + OCR). Screenshots are kept in
# .artifacts/e2e/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=$ROOT/build/bin/playchat
FAKE=$ROOT/build/bin/fakellm
ART=$ROOT/.artifacts/e2e
mkdir -p "$ART"
rm -f "$ART"/*.png

if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -s "-screen 0 1280x900x24" "$0" "$@"
fi

WORK=$(mktemp -d)
REPLY="E2E REPLY streamed from the fake model"
cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "${FAKE_PID:-}" ] && kill "$FAKE_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "e2e: FAIL: $*" >&2
  import -window root "$ART/failure.png" 2>/dev/null || true
  [ -f "$WORK/app.log" ] && tail -30 "$WORK/app.log" >&2
  [ -f "$WORK/data/logs/playchat.log" ] && tail -30 "$WORK/data/logs/playchat.log" >&2
  exit 1
}

# Turn 1 streams the reply in 8 chunks; turn 2 meets a server that answers
# 500 to every attempt; turn 3 (after the failure) gets the default reply.
cat >"$WORK/script.json" <<JSON
[{"chunks": ["E2E ", "REPLY ", "streamed ", "from ", "the ", "fake ", "model"], "chunk_delay": "60ms"},
 {"status": 500}, {"status": 500}, {"status": 500}]
JSON
"$FAKE" -addr 127.0.0.1:0 -reply "$REPLY" -chunks 8 -chunk-delay 30ms -script "$WORK/script.json" >"$WORK/fake.out" 2>&1 &
FAKE_PID=$!
for _ in $(seq 50); do grep -q FAKELLM_URL "$WORK/fake.out" && break; sleep 0.1; done
URL=$(sed -n 's/^FAKELLM_URL=//p' "$WORK/fake.out")
[ -n "$URL" ] || fail "fake server did not start"

export PLAYCHAT_DATA_DIR=$WORK/data OPENAI_BASE_URL=$URL DEFAULT_MODEL=openai/e2e-model LANG=C.UTF-8 LC_ALL=C.UTF-8
"$BIN" >"$WORK/app.log" 2>&1 &
APP_PID=$!

WID=""
for _ in $(seq 100); do
  # GTK also maps a 10x10 leader window with the same name: take the visible one.
  WID=$(xdotool search --onlyvisible --name '^playchat$' 2>/dev/null | tail -1 || true)
  [ -n "$WID" ] && break
  kill -0 "$APP_PID" 2>/dev/null || fail "the app exited at start-up"
  sleep 0.2
done
[ -n "$WID" ] || fail "no playchat window appeared"
echo "e2e: window $WID is open"
sleep 3 # let the page load and settle
xdotool windowfocus --sync "$WID" 2>/dev/null || true
import -window root "$ART/01-open.png"

# The message input has the focus when a chat is shown; click it to be sure.
read -r WX WY WW WH < <(xdotool getwindowgeometry --shell "$WID" | awk -F= '/^X=/{x=$2}/^Y=/{y=$2}/^WIDTH=/{w=$2}/^HEIGHT=/{h=$2}END{print x, y, w, h}')
xdotool mousemove --window "$WID" $((WW * 3 / 5)) $((WH - 60)) click 1
sleep 0.3
xdotool type --delay 40 "hello from the e2e test"
xdotool key Return

SID=""
for _ in $(seq 100); do
  SID=$("$BIN" sessions list --json 2>/dev/null | sed -n 's/.*"id": "\(.*\)".*/\1/p' | head -1)
  [ -n "$SID" ] && "$BIN" sessions export "$SID" -o "$WORK/export.json" 2>/dev/null &&
    grep -q '"status": "complete"' "$WORK/export.json" && grep -q "$REPLY" "$WORK/export.json" && break
  sleep 0.2
done
[ -n "$SID" ] || fail "typing into the window did not create a session"
grep -q '"content": "hello from the e2e test"' "$WORK/export.json" || fail "the typed message was not stored"
grep -q "\"content\": \"$REPLY\"" "$WORK/export.json" || fail "the streamed reply was not stored"
echo "e2e: the typed message and the streamed reply are stored"

sleep 1
import -window root "$ART/02-reply.png"
convert "$ART/02-reply.png" -resize 300% -colorspace Gray "$WORK/ocr.png"
tesseract "$WORK/ocr.png" "$WORK/ocr" >/dev/null 2>&1 || fail "tesseract failed"
grep -qi "streamed from the fake" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the reply is not visible in the window"; }
grep -qi "hello from the e2e" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the user's message is not visible in the window"; }
echo "e2e: the reply is visible in the window ($ART/02-reply.png)"

# A failing server: the message is kept, a toast shows the error.
xdotool type --delay 40 "this one fails"
xdotool key Return
for _ in $(seq 100); do
  "$BIN" sessions export "$SID" -o "$WORK/export.json" 2>/dev/null && grep -q '"status": "error"' "$WORK/export.json" && break
  sleep 0.2
done
grep -q '"content": "this one fails"' "$WORK/export.json" || fail "the message sent to a failing server was lost"
grep -q '"status": "error"' "$WORK/export.json" || fail "the failed reply was not stored with status error"
sleep 0.5
import -window root "$ART/03-error.png"
convert "$ART/03-error.png" -resize 300% -colorspace Gray "$WORK/ocr.png"
tesseract "$WORK/ocr.png" "$WORK/ocr" >/dev/null 2>&1
# The error shows twice: on the stored reply and in the toast.
[ "$(grep -c "500" "$WORK/ocr.txt")" -ge 2 ] || { cat "$WORK/ocr.txt" >&2; fail "no error toast for the failed turn"; }
echo "e2e: a failing server keeps the message and shows the error ($ART/03-error.png)"

# The next turn works, typed in Japanese.
xdotool type --delay 60 "日本語でもう一度"
xdotool key Return
for _ in $(seq 100); do
  "$BIN" sessions export "$SID" -o "$WORK/export.json" 2>/dev/null &&
    [ "$(grep -c "\"content\": \"$REPLY\"" "$WORK/export.json")" -ge 2 ] && break
  sleep 0.2
done
grep -q '"content": "日本語でもう一度"' "$WORK/export.json" || fail "the Japanese message was not stored as typed"
[ "$(grep -c "\"content\": \"$REPLY\"" "$WORK/export.json")" -ge 2 ] || fail "the turn after the failure did not work"
sleep 0.5
import -window root "$ART/04-recovered.png"
echo "e2e: the next turn works ($ART/04-recovered.png)"
echo "e2e: 3 passed, 0 failed"
