#!/usr/bin/env bash
# End-to-end test of learned web knowledge (issue 11) on the built app under
# Xvfb, against the fake model and a fake SearXNG server: a Japanese
# question makes the model call web_search; the results are summarised into
# a knowledge entry (database rows and a Markdown file with front matter
# under knowledge_base/web_search/); the window shows the Web search and
# Save knowledge activity, the answer with numbered source chips, and the
# Learned panel lists the entry. Screenshots: .artifacts/e2e-websearch/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-websearch
mkdir -p "$ART" && rm -f "$ART"/*.png

spawn "$WORK/search.out" "$ROOT/build/bin/fakesearch" -addr 127.0.0.1:0
wait_for "the fake search server" grep -q FAKESEARCH_URL "$WORK/search.out"
export SEARXNG_URL=$(sed -n 's/^FAKESEARCH_URL=//p' "$WORK/search.out")
start_fake "$ROOT/backend/knowledge/testdata/e2e-web-search.json"
start_app

send "今日の東京の天気を調べて"
wait_for "the answer to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 1 ]"
[ "$(sql "SELECT count(*) FROM knowledge_entries")" = 1 ] || fail "no knowledge entry was saved"
[ "$(sql "SELECT count(*) FROM knowledge_sources")" -ge 2 ] || fail "the entry's sources were not saved"
file=$(ls "$WORK"/data/knowledge_base/web_search/*.md 2>/dev/null | head -1)
[ -n "$file" ] || fail "no Markdown file under knowledge_base/web_search/"
head -20 "$file" | grep -q "^query:" || { head -20 "$file" >&2; fail "the entry's file has no query in its front matter"; }
echo "e2e: web_search saved one entry with its sources and $(basename "$file") with front matter"

sleep 1
shot 01-answer
ocr "$ART/01-answer.png"
grep -q "Web search" "$WORK/ocr.txt" && grep -q "Save knowledge" "$WORK/ocr.txt" ||
  { cat "$WORK/ocr.txt" >&2; fail "the activity list does not show Web search and Save knowledge"; }
grep -q "14" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "the answer is not shown"; }
echo "e2e: the window shows the Web search and Save knowledge activity and the answer ($ART/01-answer.png)"

read -r x y w h < <(find_word Learned) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no Learned button in the header"; }
click_screen $((x + w / 2)) $((y + h / 2))
# The panel slides in and then loads its list: look for up to 10 s.
listed=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
  sleep 1
  shot 02-learned
  ocr "$ART/02-learned.png"
  # (the OCR reads English only: the entry's Japanese heading is not read,
  # its "[1] <date>" line is, and the empty panel's text must be gone)
  grep -q "from the web" "$WORK/ocr.txt" && grep -q '\[1\]' "$WORK/ocr.txt" &&
    ! grep -q "Nothing learned" "$WORK/ocr.txt" && { listed=1; break; }
done
[ -n "$listed" ] || { cat "$WORK/ocr.txt" >&2; fail "the Learned panel does not list the entry"; }
echo "e2e: the Learned panel lists the entry ($ART/02-learned.png)"
echo "e2e: 3 passed, 0 failed"
