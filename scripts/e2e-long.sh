#!/usr/bin/env bash
# End-to-end test of long messages (issue 21) on the built app under Xvfb:
#   - the limit: a session file with a 10 MiB reply is refused by
#     `playchat sessions import` (naming the message) and changes nothing;
#   - a session with a 1 MiB reply of the densest Markdown (prose in two
#     languages, lists, code, tables, formulas every few lines) opens at
#     once: right after the click a typed key shows in the message box, and
#     a message typed then is stored and answered by the fake model; the
#     reply shows its beginning and "Show all", which renders the rest a
#     piece at a time (its progress read twice) while keys still show;
#   - a session with a 1 MiB reply of paragraphs (the issue's case) is shown
#     whole: its end is reached and scrolling through it repaints at once;
#   - a session whose reply is one 1 MiB code block opens at once too;
#   - a model that loops for ever is stopped at the 1 MiB limit: the reply is
#     stored partial with the reason, shown under it, and keys still show
#     while it streams.
# A key must show within KEY_MS, or three times what it took with no long
# message open (a machine busy with other work is slow either way); limits
# are 4× wider unless LONG_STRICT=1. The figures are printed either way.
# Screenshots and figures: .artifacts/e2e-long/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-long
mkdir -p "$ART" && rm -f "$ART"/*.png "$ART"/report.txt
REPORT=$ART/report.txt
SLACK=4
[ "${LONG_STRICT:-}" = 1 ] && SLACK=1
KEY_MS=$((500 * SLACK))
SCROLL_MS=$((250 * SLACK))
say() { echo "e2e-long: $*" | tee -a "$REPORT"; }
XPROBE=$ROOT/scripts/xprobe.py
now_ms() { date +%s%3N; }
MiB=1048576
export PLAYCHAT_DATA_DIR=$WORK/data

# ---- the limit on an import (no window) -------------------------------------
"$ROOT/build/bin/gensession" -n 2 -title "LONGREPLY" -long-bytes $MiB -long-kind mixed >"$WORK/long.json"
"$ROOT/build/bin/gensession" -n 2 -title "LONGCODE" -long-bytes $MiB -long-kind code >"$WORK/code.json"
"$ROOT/build/bin/gensession" -n 2 -title "LONGPARAS" -long-bytes $MiB -long-kind paragraphs >"$WORK/paras.json"
"$ROOT/build/bin/gensession" -n 2 -title "TOOBIG" -long-bytes $((10 * MiB)) -long-kind paragraphs >"$WORK/big.json"
"$BIN" sessions import "$WORK/code.json" >/dev/null 2>&1 || fail "the session with a 1 MiB code block was refused"
"$BIN" sessions import "$WORK/paras.json" >/dev/null 2>&1 || fail "the session with 1 MiB of paragraphs was refused"
"$BIN" sessions import "$WORK/long.json" >/dev/null 2>&1 || fail "the session with a 1 MiB reply was refused"
if "$BIN" sessions import "$WORK/big.json" >"$WORK/big.out" 2>&1; then fail "a session file with a 10 MiB reply was imported"; fi
grep -q "messages\[1\] (id 2) (assistant) is 10485760 bytes, over the 1 MiB limit of one message" "$WORK/big.out" ||
  { cat "$WORK/big.out" >&2; fail "the refusal does not name the over-long message"; }
[ "$(sql "SELECT count(*) FROM sessions")" = 3 ] || fail "the refused import changed the database"
say "a session file with a 10 MiB reply is refused, naming it: $(head -c 160 "$WORK/big.out")"

# ---- the window -----------------------------------------------------------------
ANSWER="E2E ANSWER WHILE THE LONG REPLY OPENS"
# No blinking caret: a key's latency is read from the message box's pixels.
mkdir -p "$WORK/xdg/config/gtk-3.0"
printf '[Settings]\ngtk-cursor-blink = false\n' >"$WORK/xdg/config/gtk-3.0/settings.ini"
# The second turn loops for ever (a stuck local model): 2 KiB deltas.
loop_chunk=$(/usr/bin/python3 -c 'import json; print(json.dumps("もう一度繰り返します。Again and again. " * 60 + "\n\n"))')
cat >"$WORK/script.json" <<JSON
[{"reply": "$ANSWER", "delta_size": 8},
 {"chunks": [$loop_chunk], "loop": true, "chunk_delay": "2ms"}]
JSON
start_fake "$WORK/script.json"
start_app

geo=$(xdotool getwindowgeometry --shell "$WID")
WX=$(sed -n 's/^X=//p' <<<"$geo"); WY=$(sed -n 's/^Y=//p' <<<"$geo")
WW=$(sed -n 's/^WIDTH=//p' <<<"$geo"); WH=$(sed -n 's/^HEIGHT=//p' <<<"$geo")
# The chat area (right of the sidebar, between the header and the input) and
# the message box (as in e2e-flood.sh).
CHAT="$((WX + 320)) $((WY + 60)) $((WW - 340)) $((WH - 180))"
INPUT="$((WX + 340)) $((WY + WH - 98)) $((WW - 520)) 40"
SCROLLBAR="$((WX + WW - 12)) $((WY + 60)) 10 $((WH - 180))"

# key_ms: ms until a key typed into the message box shows (KEY_SHOWN).
key_ms() {
  xdotool mousemove --window "$WID" $((WW * 2 / 5)) $((WH - 60)) click 1
  sleep 0.1
  # shellcheck disable=SC2086
  KEY_SHOWN=$("$XPROBE" key x $INPUT 60000)
  xdotool key BackSpace
  sleep 0.2
}
# key_in LABEL: a key typed into the message box must show within KEY_MS,
# or three times what it took before any long message was open (a machine
# busy with other work is slow with or without them).
# A key slower than the limit is typed once more: a window that is frozen
# (the fault this guards against held it 14–37 s) is slow both times, while
# one slow key on a machine busy with other tests is not a freeze.
key_in() {
  key_ms
  local limit=$((3 * BEFORE_MS > KEY_MS ? 3 * BEFORE_MS : KEY_MS)) first
  if [ "$KEY_SHOWN" -lt 0 ] || [ "$KEY_SHOWN" -gt "$limit" ]; then
    first=$KEY_SHOWN
    key_ms
    say "$1: a typed key showed after ${first} ms, the next after ${KEY_SHOWN} ms (limit ${limit} ms)"
  else
    say "$1: a key typed in the message box showed after ${KEY_SHOWN} ms (limit ${limit} ms)"
  fi
  [ "$KEY_SHOWN" -ge 0 ] && [ "$KEY_SHOWN" -le "$limit" ] || { shot "fail-key"; fail "$1: a typed key took ${KEY_SHOWN} ms to show"; }
}
# open_session TITLE: clicks the chat of that title in the list.
open_session() {
  local x y w h
  shot "list-$1"
  ocr "$ART/list-$1.png"
  read -r x y w h < <(find_word "$1") || true
  [ -n "${x:-}" ] || fail "the chat $1 is not in the list"
  click_screen $((x + w / 2)) $((y + h / 2))
  rm -f "$ART/list-$1.png"
}
# on_screen NAME WORD…: a screenshot NAME whose text shows every WORD.
on_screen() {
  local name=$1 w
  shift
  shot "$name"
  ocr "$ART/$name.png"
  for w in "$@"; do grep -qF -- "$w" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "$name: \"$w\" is not on screen"; }; done
}
# quick_text NAME: a screenshot NAME and its text (the two passes of ocr,
# without the word positions).
quick_text() {
  local pass
  shot "$1"
  for pass in "" "-threshold 80%"; do
    # shellcheck disable=SC2086
    convert "$ART/$1.png" -resize 200% -colorspace Gray $pass "$WORK/quick.png"
    tesseract "$WORK/quick.png" - 2>/dev/null || true
  done
}
# scroll_until NAME WORD BUTTON: wheel BUTTON (4 up, 5 down) over the chat,
# two notches at a time, until WORD is on screen (at most 40 times).
scroll_until() {
  local i
  xdotool mousemove $((WX + WW / 2 + 100)) $((WY + 300))
  for i in $(seq 40); do
    quick_text "$1" | grep -qF -- "$2" && return 0
    xdotool click "$3" click "$3"
    sleep 0.3
  done
  on_screen "$1" "$2"
}
# wait_screen NAME SECONDS WORD: screenshots until WORD shows (or fails).
wait_screen() {
  local name=$1 i
  for i in $(seq $(($2 * 2))); do
    quick_text "$name" | grep -qF -- "$3" && return 0
    sleep 0.5
  done
  on_screen "$name" "$3"
}

# 0. For comparison: a key in the window before any long message is open
# (the first key of the window is slower: the second is measured).
key_ms
key_ms
BEFORE_MS=$KEY_SHOWN
say "00-before: before any long message is open, a typed key shows after ${BEFORE_MS} ms"

# 1. The session with the 1 MiB reply: open it, type at once.
open_session LONGREPLY
t0=$(now_ms)
key_in "01-open"
send "typed right after opening"
for _ in $(seq 300); do
  [ "$(sql "SELECT count(*) FROM messages WHERE role='assistant' AND content='$ANSWER'")" = 1 ] && break
  sleep 0.05
done
[ "$(sql "SELECT count(*) FROM messages WHERE role='user' AND content='typed right after opening'")" = 1 ] ||
  fail "the message typed right after opening was not stored"
[ "$(sql "SELECT count(*) FROM messages WHERE role='assistant' AND content='$ANSWER'")" = 1 ] ||
  fail "the message typed right after opening was not answered within 15 s"
say "01-open: a message typed right after opening was stored and answered $(($(now_ms) - t0)) ms after the click (typing included)"
sleep 1
# The new turn is at the bottom: the long reply's Show all is just above it.
scroll_until 01-opened "Show all" 4
on_screen 01-opened "Show all"
grep -q "LONGEND" "$WORK/ocr.txt" && fail "01-opened: the end of the long reply shows before Show all"
say "01-opened: the reply shows its beginning and \"Show all\" ($ART/01-opened.png)"

# 2. Show all: the rest renders a piece a frame while the window takes keys.
read -r x y w h < <(find_word Show) || true
[ -n "${x:-}" ] || fail "no Show all button on screen"
click_screen $((x + w / 2)) $((y + h / 2))
t0=$(now_ms)
sleep 0.3
key_in "02-show-all"
# The rest renders a piece a frame: right after the click its end is not
# there yet (the chat's end shows "Showing the rest"), and within a minute it
# is (its last word, LONGEND, is on screen) while keys kept showing.
to_end() {
  click_screen $((WX + 330)) $((WY + 300))
  xdotool key End
  sleep 0.5
}
key_in "02-while-rendering"
# end_shows NAME: End (again while the rest is still coming) until the
# reply's last word is on screen; sets done_in (ms since t0).
end_shows() {
  local i
  done_in=""
  for i in $(seq 60); do
    to_end
    if quick_text "$1" | grep -qF "LONGEND"; then done_in=$(($(now_ms) - t0)); return 0; fi
    sleep 1
  done
  on_screen "$1" "LONGEND"
}
end_shows 02-rendered
say "02-show-all: the whole reply had rendered ${done_in} ms after the click, keys showing meanwhile ($ART/02-rendered.png)"


# 3. A 1 MiB reply of plain paragraphs (the issue's case): all of it, its
# end, and scrolling through it.
open_session LONGPARAS
sleep 1
key_in "03-paragraphs-open"
on_screen 03-paragraphs "Show all"
read -r x y w h < <(find_word Show) || true
[ -n "${x:-}" ] || fail "no Show all button under the paragraphs"
click_screen $((x + w / 2)) $((y + h / 2))
t0=$(now_ms)
sleep 0.3
key_in "03-show-all"
# All of it has rendered once the chat's scroll bar (its thumb shrinks as
# the reply grows) has kept still for 5 s.
s0=$(now_ms)
# shellcheck disable=SC2086
still=$("$XPROBE" stable $SCROLLBAR 5000 600000)
[ "$still" -ge 0 ] || fail "the reply was still growing 10 minutes after Show all"
say "03-show-all: all 1 MiB had rendered $((s0 - t0 + still)) ms after the click (the scroll bar kept still from then on)"
end_shows 03-end
on_screen 03-end "LONGEND" "Show less"
say "03-show-all: the reply's end is on screen ($ART/03-end.png)"
# Scrolling through the rendered megabyte repaints at once.
worst=0
all=""
xdotool mousemove $((WX + WW / 2 + 100)) $((WY + 300))
for i in $(seq 20); do
  # shellcheck disable=SC2086
  ms=$("$XPROBE" wheel 4 $CHAT 5000)
  [ "$ms" -ge 0 ] || fail "scrolling did not repaint the chat"
  [ "$ms" -gt "$worst" ] && worst=$ms
  all="$all $ms"
  sleep 0.1
done
say "03-scroll: 20 wheel turns up through the reply repainted after${all} ms: the slowest ${worst} ms (limit ${SCROLL_MS} ms)"
[ "$worst" -le "$SCROLL_MS" ] || fail "scrolling took ${worst} ms to repaint"
shot 03-scrolled

# 4. The session whose reply is one 1 MiB code block.
open_session LONGCODE
sleep 1
key_in "04-code-open"
# The chat opens at its end, as every chat does: the folded block's end and
# its Show all button; scrolling up reaches the block's first line.
on_screen 04-code "Show all"
click_screen $((WX + 330)) $((WY + 300))
xdotool key Home
sleep 0.5
on_screen 04-code-start "LONGSTART"
say "04-code: the folded block shows Show all at its end and its first line above ($ART/04-code-start.png)"
xdotool key End
sleep 0.5
on_screen 04-code "Show all"
read -r x y w h < <(find_word Show) || true
[ -n "${x:-}" ] || fail "no Show all button under the code block"
click_screen $((x + w / 2)) $((y + h / 2))
sleep 0.2
key_in "04-code-show-all"
sleep 1
shot 04-code-all

# 5. A model that loops for ever, in the session of paragraphs.
open_session LONGPARAS
sleep 1
send "loop please"
sleep 0.5
key_in "05-streaming"
for _ in $(seq 600); do
  [ "$(sql "SELECT count(*) FROM messages WHERE role='assistant' AND status='partial'")" = 1 ] && break
  sleep 0.1
done
[ "$(sql "SELECT count(*) FROM messages WHERE role='assistant' AND status='partial'")" = 1 ] ||
  fail "the looping reply was not stopped and stored within 60 s"
bytes=$(sql "SELECT length(CAST(content AS BLOB)) FROM messages WHERE role='assistant' AND status='partial'")
say "05-loop: the looping reply was stopped and stored partial at $bytes bytes"
[ "$bytes" -le $MiB ] && [ "$bytes" -ge $((MiB - 3)) ] || fail "the stopped reply holds $bytes bytes"
sql "SELECT error FROM messages WHERE role='assistant' AND status='partial'" | grep -q "1 MiB limit of one message" ||
  fail "the stopped reply does not say why"
sleep 2
wait_screen 05-stopped 20 "limit of one message"
say "05-loop: the reason shows under the reply ($ART/05-stopped.png)"
key_in "05-after"
echo "e2e-long: 6 passed, 0 failed"
