#!/usr/bin/env bash
# End-to-end test that rendered content loads nothing from the network
# (issue 21) on the built app under Xvfb. A local listener counts every
# request that reaches it; a list of payloads names its address in every
# way a page could fetch it (backgrounds on tables, images, styles,
# media, frames, a mermaid diagram's %%{init}%% themeCSS, theme variables
# and font, KaTeX …; mermaid's grammar refuses a url() in a classDef or
# style line, and the sanitiser's tests cover those styles),
# behind
# normal content (a heading, math, code, a data: image, a mermaid diagram).
# The same Markdown is shown on every surface that renders it: a reply of
# the fake model, the note page the model writes (its preview), a
# knowledge-base document and the message of an imported chat. The listener
# must count 0 requests; the page must report no load its policy had to
# refuse (the sanitisers must have removed every payload), and the normal
# content must render (screenshots in .artifacts/e2e-remote/, looked at by
# OCR and by the image's colour).
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-remote
mkdir -p "$ART" && rm -f "$ART"/*.png

spawn "$WORK/count.out" "$ROOT/scripts/countserver.py"
for _ in $(seq 50); do grep -q COUNTSERVER_URL "$WORK/count.out" && break; sleep 0.1; done
L=$(sed -n 's/^COUNTSERVER_URL=//p' "$WORK/count.out")
[ -n "$L" ] || fail "the listener did not start"
requests() { grep -c '^REQUEST' "$WORK/count.out" || true; }

# The document: normal content first (on screen), then the payloads.
# A 40×40 pure red PNG stands for an image from a data: URL.
RED=$(convert -size 40x40 xc:'#ff0000' png:- | base64 -w0)
export L RED
/usr/bin/python3 - "$WORK" <<'PY'
import json, os, sys
work = sys.argv[1]
L, red = os.environ["L"], os.environ["RED"]
doc = f"""# RENDERCHECK

Einstein: $E = mc^2$ and

$$
\\int_0^1 x^2 \\, dx = \\frac{{1}}{{3}}
$$

![red square](data:image/png;base64,{red})

```python
def square(x):
    return x * x
```

```mermaid
%%{{init: {{"themeCSS": ".node rect {{ mask: url({L}/mermaid-theme-css); }} @import url({L}/mermaid-import);", "themeVariables": {{"primaryColor": "red; background: url({L}/mermaid-var)"}}, "fontFamily": "x; background: url({L}/mermaid-font)"}}}}%%
graph LR
  A[Question] --> B[Answer]
```

PAYLOADS

<table background="{L}/table"><tr background="{L}/tr"><td background="{L}/td">cell</td></tr></table>

<img src="{L}/img.png" alt="remote"> ![remote md]({L}/md.png) <img srcset="{L}/srcset.png 1x">

<div style="background:url({L}/style)">styled</div> <p style="background:u\\72l({L}/escaped)">escaped</p>

<span style="mask:url({L}/mask);-webkit-mask-image:url({L}/mask2)">masked</span>

<style>@import url({L}/import.css); p {{ background: url({L}/style-element) }}</style>

<link rel="stylesheet" href="{L}/link.css"><link rel="icon" href="{L}/icon"><meta http-equiv="refresh" content="0;url={L}/meta"><base href="{L}/base/">

<video poster="{L}/poster" src="{L}/video"></video><audio src="{L}/audio"></audio><picture><source srcset="{L}/picture"></picture>

<iframe src="{L}/iframe"></iframe><object data="{L}/object"></object><embed src="{L}/embed"><input type="image" src="{L}/input">

<svg><image href="{L}/svg-image"/></svg> <math href="{L}/math"><mi>x</mi></math> <a href="https://example.com/" ping="{L}/ping">a link</a>

$\\htmlStyle{{background:url({L}/katex)}}{{x}}$ $\\includegraphics{{{L}/katex.png}}$
"""
args = json.dumps({"mode": "create", "title": "PAYLOADS", "content": doc})
call = [{"index": 0, "id": "c0", "type": "function", "function": {"name": "write_note", "arguments": args}}]
script = [{"tool_call_chunks": [json.dumps(call)]}, {"chunks": [doc[i:i + 400] for i in range(0, len(doc), 400)]}]
open(os.path.join(work, "script.json"), "w").write(json.dumps(script))
os.makedirs(os.path.join(work, "data", "knowledge_base"), exist_ok=True)
open(os.path.join(work, "data", "knowledge_base", "payloads.md"), "w").write(doc.replace("# RENDERCHECK", "# KBPAYLOADS\n\nRENDERCHECK", 1))
t = "2025-01-01T00:00:00Z"
session = {"format": "playchat-session", "version": 2, "exportedAt": t,
           "session": {"id": "s1", "title": "IMPORTED", "model": "openai/e2e-model", "createdAt": t, "updatedAt": t},
           "activeLeafId": 2, "memories": [],
           "messages": [{"id": 1, "role": "user", "content": "show me", "status": "complete", "createdAt": t},
                        {"id": 2, "parentId": 1, "role": "assistant", "content": doc, "status": "complete", "createdAt": t}]}
open(os.path.join(work, "import.json"), "w").write(json.dumps(session))
PY
start_fake "$WORK/script.json"

# The imported chat goes in through the CLI before the window opens.
PLAYCHAT_DATA_DIR=$WORK/data OPENAI_BASE_URL=$URL DEFAULT_MODEL=openai/e2e-model \
  XDG_DATA_HOME=$WORK/xdg/data XDG_CACHE_HOME=$WORK/xdg/cache XDG_CONFIG_HOME=$WORK/xdg/config \
  "$BIN" sessions import "$WORK/import.json" >"$WORK/import.out" 2>&1 || { cat "$WORK/import.out" >&2; fail "the import failed"; }

start_app

# checked NAME: nothing reached the listener, the page refused no load and
# WebKit's request filter cancelled none (the sanitisers removed it all).
checked() {
  local n
  n=$(requests)
  [ "$n" = 0 ] || fail "$1: $n requests reached the listener: $(grep '^REQUEST' "$WORK/count.out" | head -5 | tr '\n' ' ')"
  if grep -q "the window refused a load\|was refused a request" "$WORK/app.log"; then
    grep "the window refused a load\|was refused a request" "$WORK/app.log" | sort | uniq -c >&2
    fail "$1: a payload got past the sanitiser (the window's backstops stopped it)"
  fi
  echo "e2e: $1: 0 requests reached the listener"
}

# rendered NAME: the normal content is drawn: the heading, the diagram's
# labels (not its source), math typeset, the code, the red data: image.
rendered() {
  shot "$1"
  ocr "$ART/$1.png" Einstein Question Answer "return x"
  local txt red
  txt=$(cat "$WORK/ocr.txt")
  grep -q "Einstein" <<<"$txt" || { echo "$txt" >&2; fail "$1: the document is not shown"; }
  for raw in '$$' '\frac' '\int' 'graph LR' 'themeCSS'; do
    grep -qF -- "$raw" <<<"$txt" && { echo "$txt" >&2; fail "$1: raw source \"$raw\" is visible"; }
  done
  grep -q "Question" <<<"$txt" && grep -q "Answer" <<<"$txt" || { echo "$txt" >&2; fail "$1: the diagram is not drawn"; }
  grep -qE "square|return x" <<<"$txt" || { echo "$txt" >&2; fail "$1: the code is not shown"; }
  red=$(convert "$ART/$1.png" -fuzz 4% -fill black +opaque '#ff0000' -fill white -opaque '#ff0000' -colorspace Gray \
    -format '%[fx:round(mean*w*h)]' info:)
  [ "$red" -ge 1200 ] || fail "$1: the data: image is not shown ($red red pixels)"
  echo "e2e: $1: heading, math, code, the diagram and the data: image are drawn ($ART/$1.png)"
}

# scroll_through: wheels the chat (or the panel) down and back, so that
# every payload has been on screen.
scroll_through() {
  local x=$1 y=$2 i
  xdotool mousemove "$x" "$y"
  for i in $(seq 12); do xdotool click 5; sleep 0.1; done
  sleep 1
  shot "$3"
  for i in $(seq 12); do xdotool click 4; sleep 0.1; done
  sleep 1
}

geo=$(xdotool getwindowgeometry --shell "$WID")
WX=$(sed -n 's/^X=//p' <<<"$geo") WY=$(sed -n 's/^Y=//p' <<<"$geo")
WW=$(sed -n 's/^WIDTH=//p' <<<"$geo") WH=$(sed -n 's/^HEIGHT=//p' <<<"$geo")

# 1. The reply (the model also writes the note page), in a new chat: the
# window opens on the imported one.
xdotool key ctrl+n
sleep 1
send "render the payloads"
wait_for "the reply to be stored" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.role='assistant' AND m.status='complete' AND s.title <> 'IMPORTED'\")\" = 1 ]"
# mermaid loads lazily and draws slowly on a busy machine: up to 30 s.
# The chat followed the reply to its end (the payloads, shown as text where
# they are raw HTML): back to its top, where the normal content is.
for _ in $(seq 15); do
  sleep 2
  xdotool mousemove $((WX + WW / 2 + 100)) $((WY + WH / 2))
  for _ in $(seq 15); do xdotool click 4; done
  sleep 0.5
  shot 01-reply
  ocr "$ART/01-reply.png" Answer
  grep -q "Answer" "$WORK/ocr.txt" && break
done
rendered 01-reply
scroll_through $((WX + WW / 2 + 100)) $((WY + WH / 2)) 02-reply-end
checked "the reply"

# 2. The note page the model wrote, as its preview.
ocr "$ART/01-reply.png"
read -r x y w h < <(find_word Notes) || true
[ -n "${x:-}" ] || fail "no Notes button in the header"
click_screen $((x + w / 2)) $((y + h / 2))
sleep 2
shot 03-notes
ocr "$ART/03-notes.png"
read -r x y w h < <(find_word PAYLOADS) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no PAYLOADS tab in the notes panel"; }
click_screen $((x + w / 2)) $((y + h / 2))
sleep 1
shot 03-notes
ocr "$ART/03-notes.png"
read -r x y w h < <(find_word Preview) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no Preview button on the note"; }
click_screen $((x + w / 2)) $((y + h / 2))
for _ in $(seq 15); do
  sleep 2
  shot 04-note-preview
  ocr "$ART/04-note-preview.png" Answer
  grep -q "Answer" "$WORK/ocr.txt" && break
done
rendered 04-note-preview
scroll_through $((WX + WW * 3 / 4)) $((WY + WH / 2)) 05-note-end
checked "the note preview"
# The notes panel is a side panel: its ✕ is at the window's top right.
click_screen $((WX + WW - 25)) $((WY + 26))
sleep 1

# 3. The knowledge-base document.
shot 06-before-kb
ocr "$ART/06-before-kb.png"
read -r x y w h < <(find_word Knowledge) || true
[ -n "${x:-}" ] || fail "no Knowledge button in the header"
click_screen $((x + w / 2)) $((y + h / 2))
sleep 2
shot 06-kb
ocr "$ART/06-kb.png"
read -r x y w h < <(find_word KBPAYLOADS) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "the knowledge base does not list the document"; }
click_screen $((x + w / 2)) $((y + h / 2))
for _ in $(seq 15); do
  sleep 2
  shot 07-kb-doc
  ocr "$ART/07-kb-doc.png" Answer
  grep -q "Answer" "$WORK/ocr.txt" && break
done
rendered 07-kb-doc
scroll_through $((WX + WW * 2 / 3)) $((WY + WH / 2)) 08-kb-end
checked "the knowledge-base document"
xdotool key Escape
sleep 1

# 4. The imported chat.
shot 09-before-import
ocr "$ART/09-before-import.png"
read -r x y w h < <(find_word IMPORTED) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "the imported chat is not in the sidebar"; }
click_screen $((x + w / 2)) $((y + h / 2))
for _ in $(seq 15); do
  sleep 2
  xdotool mousemove $((WX + WW / 2 + 100)) $((WY + WH / 2))
  for _ in $(seq 15); do xdotool click 4; done
  sleep 0.5
  shot 10-imported
  ocr "$ART/10-imported.png" Answer
  grep -q "Answer" "$WORK/ocr.txt" && break
done
rendered 10-imported
scroll_through $((WX + WW / 2 + 100)) $((WY + WH / 2)) 11-imported-end
checked "the imported message"

sleep 2
[ "$(requests)" = 0 ] || fail "requests reached the listener at the end: $(requests)"
echo "e2e: 4 surfaces rendered the payloads; the listener was asked 0 times"
echo "e2e: 4 passed, 0 failed"
