#!/usr/bin/env bash
# End-to-end test of rich replies (issue 12) on the built app under Xvfb:
# the fake model streams a Japanese reply with inline and display math,
# \(…\), a Python fence and a mermaid diagram. The screenshot must show the
# formulas typeset (no raw $$, \frac or \( left), the code highlighted (more
# than one text colour in the fence) with its Copy button, and the diagram
# drawn (its labels shown, its source not). Screenshot: .artifacts/e2e-render/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-render
mkdir -p "$ART" && rm -f "$ART"/*.png

cat >"$WORK/script.json" <<'JSON'
[{"reply": "二次方程式 $ax^2+bx+c=0$ の解は次のとおりです。\n\n$$\nx = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\n$$\n\nオイラーの等式 \\(e^{i\\pi} + 1 = 0\\) も有名です。\n\n```python\ndef roots(a, b, c):\n    d = (b * b - 4 * a * c) ** 0.5\n    return (-b + d) / (2 * a), (-b - d) / (2 * a)\n```\n\n```mermaid\ngraph LR\n  A[Question] --> B{Model}\n  B --> C[Answer]\n```\n", "delta_size": 7}]
JSON
start_fake "$WORK/script.json" -chunk-delay 5ms
start_app

send "math please"
wait_for "the reply to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role='assistant' AND status='complete'\")\" = 1 ]"
# Mermaid loads lazily once the fence has closed, and draws later still on
# a loaded machine: wait (up to 60 s) until the diagram's source has given
# way to the drawing, then check everything on that screen.
for _ in $(seq 30); do
  sleep 2
  shot 01-reply
  ocr "$ART/01-reply.png"
  txt=$(cat "$WORK/ocr.txt")
  grep -qF 'graph LR' <<<"$txt" || break
done
for raw in '$$' '\frac' '\sqrt' '\(' 'graph LR' -- '-->'; do
  [ "$raw" = -- ] && continue
  grep -qF -- "$raw" <<<"$txt" && { echo "$txt" >&2; fail "raw source \"$raw\" is visible: the reply was not rendered"; }
done
for word in Question Answer; do
  grep -q "$word" <<<"$txt" || { echo "$txt" >&2; fail "the diagram's label $word is not drawn"; }
done
grep -q "roots" <<<"$txt" || { echo "$txt" >&2; fail "the code block is not shown"; }
grep -qi "python" <<<"$txt" || { echo "$txt" >&2; fail "the code block has no language label"; }
grep -q "Copy" <<<"$txt" || { echo "$txt" >&2; fail "no Copy button"; }
echo "e2e: no raw TeX or diagram source is visible; the diagram's labels and the code are ($ART/01-reply.png)"

# Highlighting: the line with "def roots" holds text in more than one
# colour (keyword, function name, plain), not just the grey of plain text.
read -r x y w h < <(awk -F'\t' 'index($1, "roots") { print $2, $3, $4, $5; exit }' "$WORK/ocr.tsv") || true
[ -n "${x:-}" ] || fail "the code's first line was not found on screen"
colours=$(convert "$ART/01-reply.png" -crop "$((w + 120))x$((h + 4))+$((x - 60))+$((y - 2))" +repage \
  -fx 'saturation > 0.25 && lightness < 0.8 ? u : #ffffff' -format %k info:)
[ "$colours" -ge 3 ] || fail "the code is not highlighted (only $colours colours on its first line)"
echo "e2e: the Python fence is highlighted ($colours colours on its first line)"
echo "e2e: 2 passed, 0 failed"
