# Shared helpers of the end-to-end scripts (sourced, not run). They run the
# built app under Xvfb against the fake OpenAI-compatible server and drive
# the real window with xdotool; screenshots go to .artifacts/<name>/.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$ROOT/build/bin/playchat
FAKE=$ROOT/build/bin/fakellm
WORK=$(mktemp -d)
export LANG=C.UTF-8 LC_ALL=C.UTF-8

# Every program a script starts (the app, the fakes) runs in its own process
# group (setsid), so ending it ends what it started too — WebKit's web and
# network processes keep writing the profile for a moment after the app is
# killed. A cleanup only ever tidies up: it never decides a verdict.
GROUPS_STARTED=()

# spawn OUT CMD…: runs CMD in a new process group with output to OUT; sets
# SPAWNED to its pid (which is also its group's id).
spawn() {
  local out=$1
  shift
  setsid "$@" >"$out" 2>&1 &
  SPAWNED=$!
  GROUPS_STARTED+=("$SPAWNED")
}

# group_cpu PGID: with E2E_CPU_FILE set (scripts/timed.sh sets it), appends
# the CPU time in clock ticks that the group's live processes other than its
# leader, and the children they reaped, have used (utime + stime + cutime +
# cstime of each): the app's WebKit processes, which die with the group
# instead of being waited for, so a script's `times` misses them. (The
# leader — the app — is waited for: `times` counts it.)
group_cpu() {
  [ -n "${E2E_CPU_FILE:-}" ] || return 0
  local p ticks=0 f
  for p in $(pgrep -g "$1" 2>/dev/null); do
    [ "$p" = "$1" ] && continue
    f=$(cut -d')' -f2- "/proc/$p/stat" 2>/dev/null) || continue
    # Fields after the command: state is 1, utime 12, stime 13, cutime 14, cstime 15.
    ticks=$((ticks + $(awk '{ print $12 + $13 + $14 + $15 }' <<<"$f")))
  done
  echo "$ticks" >>"$E2E_CPU_FILE"
}

# stop_group PGID: SIGTERM to the group, SIGKILL after 10 s, then waits
# (up to 10 s more) until no process of the group remains. Never fails.
stop_group() {
  local pg=$1 i
  [ -n "$pg" ] || return 0
  group_cpu "$pg"
  kill -TERM -- "-$pg" 2>/dev/null || true
  for i in $(seq 100); do pgrep -g "$pg" >/dev/null 2>&1 || break; sleep 0.1; done
  if pgrep -g "$pg" >/dev/null 2>&1; then
    kill -KILL -- "-$pg" 2>/dev/null || true
    for i in $(seq 100); do pgrep -g "$pg" >/dev/null 2>&1 || break; sleep 0.1; done
  fi
  wait "$pg" 2>/dev/null || true
  return 0
}

# stop_app: ends the app and everything it started (see stop_group).
stop_app() {
  stop_group "${APP_PID:-}"
  APP_PID=""
}

# remove_dir DIR: rm -rf, tried again while something still writes into it.
remove_dir() {
  local i
  for i in $(seq 20); do
    rm -rf "$1" 2>/dev/null && return 0
    sleep 0.25
  done
  echo "e2e: note: could not remove $1 (left behind)" >&2
  return 0
}

e2e_cleanup() {
  local pg
  set +e
  for pg in "${GROUPS_STARTED[@]}"; do stop_group "$pg"; done
  remove_dir "$WORK"
  return 0
}
trap e2e_cleanup EXIT

fail() {
  echo "e2e: FAIL: $*" >&2
  import -window root "$ART/failure.png" 2>/dev/null || true
  [ -f "$WORK/app.log" ] && tail -30 "$WORK/app.log" >&2
  [ -f "$WORK/data/logs/playchat.log" ] && tail -30 "$WORK/data/logs/playchat.log" >&2
  exit 1
}

# start_fake SCRIPT_JSON [fakellm flags…]: starts the fake server; sets URL.
start_fake() {
  local script=$1
  shift
  spawn "$WORK/fake.out" "$FAKE" -addr 127.0.0.1:0 -script "$script" "$@"
  FAKE_PID=$SPAWNED
  for _ in $(seq 50); do grep -q FAKELLM_URL "$WORK/fake.out" && break; sleep 0.1; done
  URL=$(sed -n 's/^FAKELLM_URL=//p' "$WORK/fake.out")
  [ -n "$URL" ] || fail "fake server did not start"
}

# start_app: runs the app against the fake server; sets APP_PID and WID.
# wait_display: returns once the X display ($DISPLAY) takes a connection
# (at most 10 s). xvfb-run starts the script when Xvfb has signalled it is
# ready, but a start right after the previous script's server went away
# has failed to open the display once ("failed to init GTK"): the app then
# exited at start-up and the test failed for the harness's sake.
wait_display() {
  local i
  for i in $(seq 100); do
    /usr/bin/python3 -c 'from Xlib import display; display.Display().close()' 2>/dev/null && return 0
    sleep 0.1
  done
  fail "the X display $DISPLAY does not take connections"
}

start_app() {
  export PLAYCHAT_DATA_DIR=$WORK/data OPENAI_BASE_URL=$URL DEFAULT_MODEL=openai/e2e-model
  wait_display
  # WebKit keeps localStorage (the UI language choice, panel widths) under
  # the XDG dirs: give the app fresh ones so no earlier run leaks in.
  XDG_DATA_HOME=$WORK/xdg/data XDG_CACHE_HOME=$WORK/xdg/cache XDG_CONFIG_HOME=$WORK/xdg/config \
    spawn "$WORK/app.log" "$BIN"
  APP_PID=$SPAWNED
  WID=""
  for _ in $(seq 100); do
    # GTK also maps a 10x10 leader window with the same name: take the visible one.
    WID=$(xdotool search --onlyvisible --name '^playchat$' 2>/dev/null | tail -1 || true)
    [ -n "$WID" ] && break
    if ! kill -0 "$APP_PID" 2>/dev/null; then
      # The display refused the app (see wait_display): once more, after
      # the display answers again; any other exit is the app's failure.
      if [ -z "${START_RETRIED:-}" ] && grep -q "the display could not be opened" "$WORK/app.log" 2>/dev/null; then
        echo "e2e: note: the display refused the app at start-up; starting it again" >&2
        START_RETRIED=1 start_app
        return
      fi
      fail "the app exited at start-up"
    fi
    sleep 0.2
  done
  [ -n "$WID" ] || fail "no playchat window appeared"
  echo "e2e: window $WID is open"
  # Wait until the page has rendered (a loaded machine can take seconds).
  local geo
  geo=$(xdotool getwindowgeometry --shell "$WID")
  "$ROOT/scripts/xprobe.py" drawn "$(sed -n 's/^X=//p' <<<"$geo")" "$(sed -n 's/^Y=//p' <<<"$geo")" \
    "$(sed -n 's/^WIDTH=//p' <<<"$geo")" "$(sed -n 's/^HEIGHT=//p' <<<"$geo")" 60000 >/dev/null
  sleep 2 # let it settle
  xdotool windowfocus --sync "$WID" 2>/dev/null || true
}

# send TEXT: clicks the message input and types TEXT, then Enter.
send() {
  local geo ww wh
  geo=$(xdotool getwindowgeometry --shell "$WID")
  ww=$(sed -n 's/^WIDTH=//p' <<<"$geo")
  wh=$(sed -n 's/^HEIGHT=//p' <<<"$geo")
  xdotool mousemove --window "$WID" $((ww * 2 / 5)) $((wh - 60)) click 1
  sleep 0.3
  # xdotool types a non-ASCII character by remapping a spare keycode; at
  # 40 ms a character it has dropped one now and then (日本語でもう一度 →
  # 日本語もう一度), so such text is typed slower (one invocation: separate
  # ones restore the keymap before the app has read the key).
  if LC_ALL=C grep -q '[^ -~]' <<<"$1"; then
    # Even so it drops one on a loaded machine (日本語でもう一度 → 日語でもう一度):
    # read the box back through the clipboard and type again until it
    # holds the text, so what the app stores is checked, not xdotool.
    local try got
    for try in 1 2 3; do
      xdotool type --delay 150 "$1"
      sleep 0.4
      xdotool key ctrl+a ctrl+c
      sleep 0.2
      got=$(xclip -o -selection clipboard 2>/dev/null || true)
      [ "$got" = "$1" ] && break
      echo "e2e: xdotool typed \"$got\" for \"$1\": typing it again" >&2
      xdotool key ctrl+a BackSpace
      sleep 0.2
    done
    xdotool key End
  else
    xdotool type --delay 40 "$1"
  fi
  # xdotool types non-ASCII by remapping a spare keycode; let the last
  # remapped key land before Enter.
  sleep 0.4
  xdotool key Return
}

# click_screen X Y: moves the pointer to screen X Y, lets the page see it
# there, then clicks. (WebKitGTK hit-tests a press against the pointer's
# last known place: a move and a press in one burst can press on whatever
# was under the pointer before — the focused message box.)
click_screen() {
  xdotool mousemove "$1" "$2"
  sleep 0.3
  xdotool click 1
}

# shot NAME: a screenshot of the screen into $ART/NAME.png.
shot() { import -window root "$ART/$1.png"; }

# drag_source NAME OUT X Y KIND ITEM…: starts scripts/dragsource.py at
# screen X Y offering KIND (files, text, url) with ITEMs, its output in OUT,
# and waits until it shows its label (DRAGSOURCE_READY). A GTK program can
# take seconds to start on a busy machine, and once in a CI run one never
# showed it in 30 s: it is started again then (at most 3 times), and what it
# printed is shown. Sets SPAWNED to its process group.
drag_source() {
  local name=$1 out=$2 attempt
  shift 2
  for attempt in 1 2 3; do
    spawn "$out" "$ROOT/scripts/dragsource.py" "$@"
    for _ in $(seq 300); do grep -q DRAGSOURCE_READY "$out" && return 0; sleep 0.1; done
    echo "e2e: $name: the drag source did not show its label in 30 s (attempt $attempt); it printed:" >&2
    sed 's/^/  | /' "$out" >&2
    stop_group "$SPAWNED"
  done
  fail "$name: the drag source did not start"
}

# drag_gesture NAME TX TY: with a drag source started by drag_source (its
# output in $WORK/drag.out), presses on its label and moves the pointer
# to screen TX TY with real pointer events, leaving the button down (the
# caller releases it: xdotool mouseup 1). A press that reaches the source
# before it is ready starts no drag (the source prints DRAGSOURCE_BEGIN when
# one does): the gesture is made again then, at most 3 times.
drag_gesture() {
  local name=$1 tx=$2 ty=$3 sx sy sw sh i attempt
  read -r _ sx sy sw sh < <(grep DRAGSOURCE_READY "$WORK/drag.out") || fail "$name: the drag source did not start"
  sx=$((sx + sw / 2)) sy=$((sy + sh / 2))
  for attempt in 1 2 3; do
    xdotool mousemove "$sx" "$sy"
    sleep 0.3
    xdotool mousedown 1
    for i in $(seq 1 20); do
      xdotool mousemove $((sx + (tx - sx) * i / 20)) $((sy + (ty - sy) * i / 20))
      sleep 0.05
    done
    sleep 0.5
    grep -q DRAGSOURCE_BEGIN "$WORK/drag.out" && return 0
    xdotool mouseup 1
    echo "e2e: $name: no drag started (attempt $attempt); again"
    sleep 0.5
  done
  fail "$name: no drag started from the drag source"
}

# ocr IMAGE [WORD…]: writes the words seen in IMAGE to $WORK/ocr.tsv (word,
# x, y, w, h in screen pixels) and $WORK/ocr.txt. Two passes are merged:
# plain grey reads dark and coloured text best, a thresholded pass reads grey
# UI text (header buttons). With WORDs (text the caller will grep ocr.txt
# for), the second pass runs only when the first did not read every WORD: a
# pass of tesseract is 5–13 s of a 2-core machine's time.
ocr() {
  local img=$1 pass word missing
  shift
  : >"$WORK/ocr.tsv"
  : >"$WORK/ocr.txt"
  for pass in "" "-threshold 80%"; do
    if [ -n "$pass" ] && [ $# -gt 0 ]; then
      missing=""
      for word in "$@"; do grep -qF -- "$word" "$WORK/ocr.txt" || missing=1; done
      [ -n "$missing" ] || return 0
    fi
    # shellcheck disable=SC2086
    convert "$img" -resize 300% -colorspace Gray $pass "$WORK/ocr.png"
    # One run writes both outputs. One thread: tesseract's OpenMP threads
    # fight over a loaded 2-core machine (13 s a pass instead of 5).
    OMP_THREAD_LIMIT=1 tesseract "$WORK/ocr.png" "$WORK/ocr1" txt tsv >/dev/null 2>&1 || fail "tesseract failed"
    cat "$WORK/ocr1.txt" >>"$WORK/ocr.txt"
    awk -F'\t' 'NR > 1 && $12 != "" { printf "%s\t%d\t%d\t%d\t%d\n", $12, $7/3, $8/3, $9/3, $10/3 }' \
      "$WORK/ocr1.tsv" >>"$WORK/ocr.tsv"
  done
}

# ocr_region IMAGE X Y W H [WORD…]: ocr of the rectangle (screen pixels) of
# IMAGE only — a side panel, a dialog. Small or pale text (a green
# "Delivered" badge) reads far better without the rest of the window around
# it, and a pass costs a fraction of a whole screen's. ocr.tsv keeps screen
# coordinates, so find_word works as after ocr.
ocr_region() {
  local img=$1 x=$2 y=$3 w=$4 h=$5
  shift 5
  convert "$img" -crop "${w}x${h}+${x}+${y}" +repage "$WORK/region.png"
  ocr "$WORK/region.png" "$@"
  awk -F'\t' -v dx="$x" -v dy="$y" 'BEGIN { OFS = "\t" } { $2 += dx; $3 += dy; print }' "$WORK/ocr.tsv" >"$WORK/ocr.tsv.screen"
  mv "$WORK/ocr.tsv.screen" "$WORK/ocr.tsv"
}

# find_word WORD: "x y w h" of the topmost occurrence of WORD in the last ocr.
find_word() {
  awk -F'\t' -v w="$1" '$1 == w { print $3, $2, $4, $5 }' "$WORK/ocr.tsv" | sort -n | head -1 |
    awk '{ print $2, $1, $3, $4 }'
}

# find_word_in WORD: like find_word, but also where OCR glued WORD to a
# symbol beside it ("↻ Retry" read as "URetry").
find_word_in() {
  awk -F'\t' -v w="$1" 'index($1, w) > 0 && length($1) <= length(w) + 2 { print $3, $2, $4, $5 }' "$WORK/ocr.tsv" |
    sort -n | head -1 | awk '{ print $2, $1, $3, $4 }'
}

# wait_for DESCRIPTION COMMAND…: polls COMMAND for up to 20 s.
wait_for() {
  local what=$1
  shift
  for _ in $(seq 100); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  fail "timed out waiting for $what"
}

# sql QUERY: runs a read-only query on the app's database.
sql() { sqlite3 -readonly "$WORK/data/playchat.db" "$1"; }

# request_with TEXT [WHERE]: prints the newest logged model request
# (api_logs; WHERE picks the rows, purpose 'turn' by default) once it holds
# TEXT, or as it is after 20 s. The app writes a call's record in the
# background as the turn ends, so a check right after the reply waits for
# it.
request_with() {
  local want=$1 where=${2:-"purpose = 'turn'"} req=""
  for _ in $(seq 100); do
    req=$(sql "SELECT request_json FROM api_logs WHERE $where ORDER BY id DESC LIMIT 1")
    grep -qF -- "$want" <<<"$req" && break
    sleep 0.2
  done
  printf '%s' "$req"
}
