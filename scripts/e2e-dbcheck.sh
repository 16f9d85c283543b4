#!/usr/bin/env bash
# End-to-end test of a database the window must not use (issue 21, item 7):
#   1. garbage written over a page in the middle of playchat.db (a data dir
#      with a 400-message chat, built by `playchat sessions import`);
#   2. a database a newer playchat wrote (it records a migration this
#      version does not know).
# Each time the real window starts and must show the full-window error
# screen — what happened, the data folder, what to do — instead of an empty
# chat, in English and in Japanese (LC_ALL); the database file must be
# byte-for-byte what it was (sha256 before and after). `playchat ask` must
# refuse the same database: exit 1, the same message, a coded error line in
# --json. Screenshots: .artifacts/e2e-dbcheck/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-dbcheck
mkdir -p "$ART" && rm -f "$ART"/*.png
DB=$WORK/data/playchat.db

echo '[]' >"$WORK/script.json"
start_fake "$WORK/script.json" -reply "never asked"
# A data dir with a 400-message chat (about 1 MB), every change checkpointed
# into the file.
"$ROOT/build/bin/gensession" -n 400 >"$WORK/long.json"
PLAYCHAT_DATA_DIR=$WORK/data "$BIN" sessions import "$WORK/long.json" >/dev/null || fail "could not build the data dir"
cp "$DB" "$WORK/good.db"

# corrupt_middle: random bytes over the page in the middle of the file.
corrupt_middle() {
  local pages
  pages=$(($(stat -c %s "$DB") / 4096))
  dd if=/dev/urandom of="$DB" bs=4096 seek=$((pages / 2)) count=1 conv=notrunc status=none
}
# mark_newer: the database records a migration of a later playchat.
mark_newer() {
  sqlite3 "$DB" "INSERT INTO bun_migrations (name, group_id, migrated_at) VALUES ('20991231000099_from_the_future', 99, CURRENT_TIMESTAMP)"
}
hash() { sha256sum "$DB" | cut -d' ' -f1; }

# check CASE LOCALE WORDS…: the window started under LOCALE shows the error
# screen (OCR finds every WORD), and leaves the file as it was; then ask
# refuses it.
check() {
  local name=$1 locale=$2 before w
  shift 2
  before=$(hash)
  # The window takes its language from the locale (the database holds the
  # saved choice); bash's own complaint about a locale it lacks is noise.
  export LC_ALL=$locale 2>/dev/null
  start_app
  export LC_ALL=C.UTF-8 2>/dev/null
  sleep 1
  shot "$name"
  ocr "$ART/$name.png"
  for w in "$@"; do
    grep -qiF -- "$w" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "$name: the window does not show \"$w\" ($ART/$name.png)"; }
  done
  # Not an empty chat: no message box, no session list.
  grep -qiF "Enter to send" "$WORK/ocr.txt" && fail "$name: the chat is shown ($ART/$name.png)"
  stop_app
  [ "$(hash)" = "$before" ] || fail "$name: the window changed the database file"
  echo "e2e-dbcheck: $name: the window shows the error screen, the file is unchanged ($ART/$name.png)"
}
# refused_by_ask CODE WORDS: ask exits 1 with WORDS on stderr and CODE in --json.
refused_by_ask() {
  local code=$1 words=$2 before out
  before=$(hash)
  if "$BIN" ask "hello" >"$WORK/ask.out" 2>"$WORK/ask.err"; then fail "ask ran on a refused database"; fi
  grep -qF "$words" "$WORK/ask.err" || { cat "$WORK/ask.err" >&2; fail "ask's message lacks \"$words\""; }
  grep -qF "$WORK/data" "$WORK/ask.err" || fail "ask's message does not name the data folder"
  out=$("$BIN" ask --json "hello" || true)
  [ "$(tail -1 <<<"$out" | jq -r .code)" = "$code" ] || fail "ask --json ended with $(tail -1 <<<"$out")"
  [ "$(hash)" = "$before" ] || fail "ask changed the database file"
  echo "e2e-dbcheck: ask refuses it with $code, the file is unchanged"
}

export PLAYCHAT_DATA_DIR=$WORK/data OPENAI_BASE_URL=$URL DEFAULT_MODEL=openai/e2e-model

# 1. damaged
corrupt_middle
check 01-damaged-en C.UTF-8 "The database is damaged" "restore the data folder" "data/playchat.db" "Open data folder" Quit
check 02-damaged-ja ja_JP.UTF-8 "data/playchat.db"
refused_by_ask store.damaged "is damaged"

# 2. from a newer playchat
cp "$WORK/good.db" "$DB"
rm -f "$DB-wal" "$DB-shm"
mark_newer
check 03-newer-en C.UTF-8 "This data is from a newer playchat" "20991231000099" "install it again" "data/playchat.db"
check 04-newer-ja ja_JP.UTF-8 "20991231000099" "data/playchat.db"
refused_by_ask store.newerSchema "newer version of playchat"

# The good copy still opens: the refusals left nothing behind.
cp "$WORK/good.db" "$DB"
"$BIN" sessions list >/dev/null || fail "the restored database does not open"
echo "e2e-dbcheck: a restored backup opens again"
echo "e2e-dbcheck: 5 passed, 0 failed"
