#!/usr/bin/env bash
# End-to-end test of a start with what the last run left due (issue 21): the
# built app under Xvfb, with a stand-in tray host (trayprobe watch), a fake
# notification server (fakenotify), a fake Discord (fakediscord), a fake JMA
# server (the fixture, dated for tomorrow) and the fake model.
#   1. While playchat is closed, a one-time reminder, a daily reminder and a
#      Discord reminder fall due; the daily weather post is due a few seconds
#      after the window starts.
#   2. The window starts: the late notifications arrive, the Discord
#      reminder goes out once the bot connects, the weather post is posted —
#      and meanwhile the window works: its chat list shows the chat the CLI
#      made, the tray icon registers, a typed message is answered.
#   3. SIGTERM ends the app within a few seconds; a second start delivers
#      nothing again and works too.
# Before issue 21 the first start froze for good (App.Startup held the
# app's lock while the overdue notification waited for it).
# Screenshots: .artifacts/e2e-startup/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-startup
mkdir -p "$ART" && rm -f "$ART"/*.png
TOKEN=e2e-bot-token
CHANNEL=400000000000000001
USER_ID=2000
REPLY="E2E REPLY after an overdue start"

setsid "$ROOT/build/bin/fakenotify" >"$WORK/notify.jsonl" 2>"$WORK/notify.err" &
GROUPS_STARTED+=($!)
spawn "$WORK/tray.out" "$ROOT/build/bin/trayprobe" watch
spawn "$WORK/discord.out" "$ROOT/build/bin/fakediscord" -token "$TOKEN" -ready-file "$WORK/discord.url"
wait_for "the fake notification server" grep -q '"ready"' "$WORK/notify.jsonl"
wait_for "the fake Discord" test -s "$WORK/discord.url"
DURL=$(head -1 "$WORK/discord.url")

# A JMA forecast document for Tokyo whose "tomorrow" is tomorrow in JST.
mkdir -p "$WORK/jma"
python3 - "$ROOT/../shared/fixtures/jma/forecast-tokyo-130000-20220221-0754.json" "$WORK/jma/130000.json" <<'EOF'
import datetime, re, sys
src = open(sys.argv[1], encoding="utf-8").read()
today = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=9)).date()
shift = today - datetime.date(2022, 2, 21)
out = re.sub(r"(\d{4})-(\d{2})-(\d{2})T",
             lambda m: (datetime.date(int(m[1]), int(m[2]), int(m[3])) + shift).isoformat() + "T", src)
open(sys.argv[2], "w", encoding="utf-8").write(out)
EOF
spawn "$WORK/jma.out" python3 -m http.server --bind 127.0.0.1 --directory "$WORK/jma" 0
wait_for "the fake JMA server" grep -q "Serving HTTP" "$WORK/jma.out"
JMA_PORT=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$WORK/jma.out" | head -1)
export PLAYCHAT_JMA_BASE_URL=http://127.0.0.1:$JMA_PORT

echo '[]' >"$WORK/script.json"
start_fake "$WORK/script.json" -reply "$REPLY"
export PLAYCHAT_DATA_DIR=$WORK/data OPENAI_BASE_URL=$URL DEFAULT_MODEL=openai/e2e-model
export PLAYCHAT_DISCORD_API=$DURL DISCORD_ENABLED=true DISCORD_BOT_TOKEN=$TOKEN DISCORD_NOTIFY_CHANNEL_ID=$CHANNEL

# The last run left: a chat made from the terminal, and three reminders
# that fall due while playchat is closed.
"$BIN" ask "startup chat from the terminal" >/dev/null
at=$(date -d '+2 sec' +%Y-%m-%dT%H:%M:%S)
"$BIN" reminders add --at "$at" "overdue one-time" >/dev/null
"$BIN" reminders add --at "$at" --repeat FREQ=DAILY "overdue daily" >/dev/null
"$BIN" reminders add --at "$at" "overdue on discord" >/dev/null
sqlite3 "$WORK/data/playchat.db" "UPDATE reminders SET origin='discord', channel_id='$CHANNEL', user_id='$USER_ID', user_name='hanako' WHERE content='overdue on discord'"
# The weather post is due at the start of the next minute: start the window
# a few seconds before it, once the reminders are overdue.
sleep 3
while [ "$(date +%S | sed 's/^0//')" -lt 50 ]; do sleep 1; done
post_at=$(date -d '+1 min' +%H:%M)
export WEATHER_NOTIFY_HOUR=${post_at%%:*} WEATHER_NOTIFY_MINUTE=${post_at##*:}
export WEATHER_NOTIFY_HOUR=${WEATHER_NOTIFY_HOUR#0} WEATHER_NOTIFY_MINUTE=${WEATHER_NOTIFY_MINUTE#0}
[ -n "$WEATHER_NOTIFY_HOUR" ] || WEATHER_NOTIFY_HOUR=0
[ -n "$WEATHER_NOTIFY_MINUTE" ] || WEATHER_NOTIFY_MINUTE=0
echo "e2e: three reminders are overdue; the weather post is due at $post_at"
start_app
shot 01-started

# The window works while the overdue work is delivered.
ocr "$ART/01-started.png"
grep -qi "startup chat" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the chat list does not show the chat the terminal made ($ART/01-started.png)"; }
echo "e2e: the window shows the chat list ($ART/01-started.png)"
wait_for "the tray icon to register" grep -q registered "$WORK/tray.out"
echo "e2e: the tray icon registered"
# replies N: at least N complete replies are stored (the CLI's chat has one).
replies() { [ "$(sql "SELECT count(*) FROM messages WHERE role='assistant' AND status='complete' AND content='$REPLY'")" -ge "$1" ]; }
send "hello after an overdue start"
wait_for "the reply to a message typed after the start" replies 2
echo "e2e: a message typed after the start is answered"

# Every kind of overdue work arrived, once.
wait_for "the desktop notifications" bash -c "[ \"\$(grep -c '\"event\":\"notify\"' '$WORK/notify.jsonl')\" -ge 2 ]"
grep '"event":"notify"' "$WORK/notify.jsonl" | grep -q "overdue one-time" || fail "no notification for the one-time reminder"
grep '"event":"notify"' "$WORK/notify.jsonl" | grep -q "overdue daily" || fail "no notification for the daily reminder"
state() { sql "SELECT state || '/' || late FROM reminders WHERE content='$1'"; }
wait_for "the one-time reminder delivered late" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT state || '/' || late FROM reminders WHERE content='overdue one-time'\")\" = delivered/1 ]"
[ "$(sql "SELECT state FROM reminders WHERE content='overdue daily'")" = pending ] || fail "the daily reminder is $(state 'overdue daily'), not pending at its next occurrence"
[ "$(sql "SELECT due_at > datetime('now', '+23 hours') FROM reminders WHERE content='overdue daily'")" = 1 ] || fail "the daily reminder did not move to tomorrow"
[ -n "$(sql "SELECT notified_at FROM reminders WHERE content='overdue daily'")" ] || fail "the daily reminder's delivery is not recorded"
echo "e2e: the one-time and daily reminders were notified late; the daily one moved to tomorrow"
calls() { curl -fsS "$DURL/_control/calls"; }
wait_for "the Discord reminder post" bash -c "curl -fsS '$DURL/_control/calls' | jq -e '[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\" and .status == 200) | select(.body.content | contains(\"overdue on discord\") and contains(\"<@$USER_ID>\"))] | length == 1' >/dev/null"
wait_for "the Discord reminder delivered" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT state FROM reminders WHERE content='overdue on discord'\")\" = delivered ]"
echo "e2e: the Discord reminder was posted once the bot connected"
for _ in $(seq 60); do
  calls | jq -e "[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\" and .status == 200) | select(.body.content | contains(\"洗濯\"))] | length == 1" >/dev/null && break
  sleep 1
done
calls | jq -e "[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\" and .status == 200) | select(.body.content | contains(\"洗濯\"))] | length == 1" >/dev/null ||
  fail "the weather post due at $post_at was not posted (calls: $(calls | jq -c '[.[] | {route, status}]'))"
echo "e2e: the weather post went out at $post_at"
shot 02-after
# The window still answers after all of it.
send "and once more"
wait_for "the second reply" replies 3
sleep 0.5
shot 03-working
ocr "$ART/03-working.png"
grep -qi "once more" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the window does not show the last message ($ART/03-working.png)"; }
echo "e2e: the window still answers ($ART/03-working.png)"

# SIGTERM ends it, promptly.
kill -TERM "$APP_PID"
gone=""
for _ in $(seq 50); do kill -0 "$APP_PID" 2>/dev/null || { gone=1; break; }; sleep 0.1; done
[ -n "$gone" ] || fail "SIGTERM did not end the app within 5 s"
stop_app
echo "e2e: SIGTERM ended the app"

# A second start delivers nothing again, and works.
notified=$(grep -c '"event":"notify"' "$WORK/notify.jsonl")
start_app
send "after the restart"
wait_for "the reply after the restart" replies 4
[ "$(grep -c '"event":"notify"' "$WORK/notify.jsonl")" = "$notified" ] || fail "the restart delivered reminders again"
[ "$(calls | jq "[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\") | select(.body.content | contains(\"overdue on discord\"))] | length")" = 1 ] ||
  fail "the restart posted the Discord reminder again"
shot 04-restarted
echo "e2e: a second start delivered nothing again and works ($ART/04-restarted.png)"
echo "e2e: 6 passed, 0 failed"
