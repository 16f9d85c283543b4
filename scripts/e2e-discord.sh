#!/usr/bin/env bash
# End-to-end test of the Discord bot (issue 13) on the built app under Xvfb,
# against a fake Discord (fakediscord: REST + gateway) and the fake model,
# with a stand-in tray host (trayprobe watch) on a private session bus:
#   1. with DISCORD_ENABLED and a token, the window's bot connects; the tray
#      menu says "Discord: connected as playchat-bot";
#   2. a mention asking for a reminder in 3 s runs a turn whose model calls
#      create_reminder: the reminder is stored with origin discord, the
#      channel and the requester, and the reply is posted to the channel as a
#      reply that pings nobody but the requester;
#   3. the bot posts the reminder on time (within 1 s of its due time,
#      2 s on a loaded machine), mentioning only the requester;
#   4. the channel's session shows in the window's chat list and holds the
#      mention and the reply.
# Screenshots: .artifacts/e2e-discord/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-discord
mkdir -p "$ART" && rm -f "$ART"/*.png
TOKEN=e2e-bot-token
CHANNEL=4000
USER_ID=2000
TEXT="ベランダの水やり"

spawn "$WORK/discord.out" "$ROOT/build/bin/fakediscord" -token "$TOKEN" -ready-file "$WORK/discord.url"
spawn "$WORK/tray.out" "$ROOT/build/bin/trayprobe" watch
wait_for "the fake Discord" test -s "$WORK/discord.url"
DURL=$(head -1 "$WORK/discord.url")

cat >"$WORK/script.json" <<JSON
[{"tool_call_chunks": ["[{\"index\":0,\"id\":\"r0\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\",\"arguments\":\"{\\\\\"content\\\\\":\\\\\"$TEXT\\\\\",\\\\\"due\\\\\":\\\\\"{{now+3s}}\\\\\"}\"}}]"]},
 {"chunks": ["3秒後に", "お知らせします。@everyone"]}]
JSON
start_fake "$WORK/script.json"
export PLAYCHAT_DISCORD_API=$DURL DISCORD_ENABLED=true DISCORD_BOT_TOKEN=$TOKEN
start_app

status() { curl -fsS "$DURL/_control/status"; }
calls() { curl -fsS "$DURL/_control/calls"; }
wait_for "the bot to connect" bash -c "curl -fsS '$DURL/_control/status' | grep -q '\"readies\":[1-9]'"
echo "e2e: the window's bot connected to the fake Discord ($(status))"
wait_for "the tray icon to register" grep -q registered "$WORK/tray.out"
wait_for "the tray's Discord line" bash -c "'$ROOT/build/bin/trayprobe' menu | grep -q 'Discord: connected as playchat-bot'"
echo "e2e: the tray menu says: Discord: connected as playchat-bot"

curl -fsS -X POST "$DURL/_control/message" -H 'Content-Type: application/json' \
  -d "{\"channel_id\":\"$CHANNEL\",\"author_id\":\"$USER_ID\",\"author_name\":\"hanako\",\"content\":\"<@!1000> 3秒後に${TEXT}をリマインドして\"}" >/dev/null
wait_for "the reminder to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM reminders WHERE content='$TEXT' AND origin='discord' AND channel_id='$CHANNEL' AND user_id='$USER_ID'\")\" = 1 ]"
due=$(sql "SELECT due_at FROM reminders WHERE content='$TEXT'")
echo "e2e: the mention's turn stored a Discord reminder due $due for user $USER_ID in channel $CHANNEL"

# The reply: one post to the channel, a reply to the mention, pinging only the requester.
posts() { calls | jq -c "[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\" and .status == 200)]"; }
wait_for "the reply" bash -c "curl -fsS '$DURL/_control/calls' | jq -e '[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\" and .status == 200) | select(.body.content | contains(\"お知らせします\"))] | length == 1' >/dev/null"
reply=$(posts | jq -c '[.[] | select(.body.content | contains("お知らせします"))][0].body')
jq -e --arg u "$USER_ID" '.allowed_mentions.parse == [] and .allowed_mentions.users == [$u] and .message_reference.message_id != null' <<<"$reply" >/dev/null ||
  fail "the reply's allowed_mentions/reference are wrong: $reply"
echo "e2e: the reply was posted as a reply, its @everyone pinging nobody: $(jq -c .allowed_mentions <<<"$reply")"

# The reminder, on time, mentioning only the requester.
wait_for "the reminder post" bash -c "curl -fsS '$DURL/_control/calls' | jq -e '[.[] | select(.method == \"POST\" and .route == \"/channels/$CHANNEL/messages\" and .status == 200) | select(.body.content | contains(\"$TEXT\") and contains(\"<@$USER_ID>\"))] | length >= 1' >/dev/null"
post=$(posts | jq -c --arg t "$TEXT" '[.[] | select(.body.content | contains($t) and contains("<@"))][0]')
jq -e --arg u "$USER_ID" '.body.allowed_mentions.parse == [] and .body.allowed_mentions.users == [$u]' <<<"$post" >/dev/null ||
  fail "the reminder post may ping others: $post"
at=$(jq -r '.at // empty' <<<"$post")
[ -n "$at" ] || fail "the fake Discord did not record when the reminder was posted: $post"
delay_ms=$(($(date -d "$at" +%s%3N) - $(date -d "$due" +%s%3N)))
[ "$delay_ms" -ge 0 ] && [ "$delay_ms" -le 2000 ] || fail "the reminder came ${delay_ms} ms after its due time ($at vs $due)"
echo "e2e: the bot posted the reminder ${delay_ms} ms after its due time: $(jq -r .body.content <<<"$post")"
sleep 2
[ "$(posts | jq --arg t "$TEXT" '[.[] | select(.body.content | contains($t) and contains("<@"))] | length')" = 1 ] || fail "the reminder was posted more than once"
[ "$(sql "SELECT state FROM reminders WHERE content='$TEXT'")" = delivered ] || fail "the reminder is not stored delivered"

# The channel's session is in the window, with the mention and the reply.
sid=$(sql "SELECT session_id FROM discord_channels WHERE channel_id='$CHANNEL'")
[ -n "$sid" ] || fail "no session for the channel"
title=$(sql "SELECT title FROM sessions WHERE id='$sid'")
[ "$(sql "SELECT count(*) FROM messages WHERE session_id='$sid' AND role='user' AND content LIKE '%${TEXT}%'")" = 1 ] || fail "the mention is not stored in the channel's session"
[ "$(sql "SELECT count(*) FROM messages WHERE session_id='$sid' AND role='assistant' AND content LIKE '%お知らせします%'")" = 1 ] || fail "the reply is not stored in the channel's session"
sleep 1.5
shot 01-list
ocr "$ART/01-list.png"
read -r x y w h < <(find_word Discord) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "the chat list does not show the Discord session ($title)"; }
click_screen $((x + w / 2)) $((y + h / 2))
sleep 1.5
shot 02-session
echo "e2e: the chat list shows \"$title\" with the mention and the reply ($ART/02-session.png)"
echo "e2e: 5 passed, 0 failed"
