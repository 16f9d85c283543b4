#!/usr/bin/env bash
# End-to-end test of the per-model image setting (MODEL_IMAGES, issue 25)
# in the real window. The app starts with the chat's model set not to take
# images (MODEL_IMAGES in the environment). An image pasted into the
# message box shows the warning that says so; Send is refused by Go
# (chat.imagesNotTaken: no request reaches the model, the image stays).
# The warning's "This model can see images" saves the setting (the GUI
# layer, over the environment), the warning goes, and the image is sent as
# an image_url part. Settings (Ctrl+,) then shows the model under "Images
# per model". Screenshots: .artifacts/e2e-vision/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
source "$(dirname "$0")/e2e-lib.sh"
ART=$ROOT/.artifacts/e2e-vision
mkdir -p "$ART" && rm -f "$ART"/*.png

cat >"$WORK/script.json" <<'JSON'
[{"chunks": ["A green ", "square."]}]
JSON
convert -size 320x240 xc:'#30a040' "$WORK/green.png"

start_fake "$WORK/script.json"
export MODEL_IMAGES=openai/e2e-model=no
start_app
geo=$(xdotool getwindowgeometry --shell "$WID")
WW=$(sed -n 's/^WIDTH=//p' <<<"$geo") WH=$(sed -n 's/^HEIGHT=//p' <<<"$geo")

# 1. Paste an image: the warning says the model is set not to take images.
xclip -selection clipboard -t image/png -i "$WORK/green.png" &
CLIP=$!
sleep 0.5
xdotool mousemove --window "$WID" $((WW * 2 / 5)) $((WH - 60)) click 1
sleep 0.3
xdotool key ctrl+v
found=""
for _ in 1 2 3 4; do
  sleep 1.5
  shot 01-warned
  ocr "$ART/01-warned.png" "message with images"
  grep -q "message with images" "$WORK/ocr.txt" && found=1 && break
done
kill "$CLIP" 2>/dev/null || true
[ -n "$found" ] || { cat "$WORK/ocr.txt" >&2; fail "no warning that the model is set not to take images"; }
echo "e2e: the pasted image shows the warning for a model set not to take images"

# 2. Send anyway: refused before anything reaches the model.
send "what colour is this"
sleep 2
shot 02-refused
[ "$(sql "SELECT count(*) FROM api_logs WHERE purpose = 'turn'")" = 0 ] || fail "a request reached the model set not to take images"
[ "$(sql "SELECT count(*) FROM messages")" = 0 ] || fail "the refused message was stored"
echo "e2e: Send is refused for the model set to no: no request, nothing stored"

# 3. "This model can see images": the setting is saved, the warning goes.
ocr "$ART/02-refused.png" see
read -r x y w h < <(find_word see) || true
[ -n "${x:-}" ] || { cat "$WORK/ocr.txt" >&2; fail "no \"This model can see images\" button"; }
click_screen $((x + w / 2)) $((y + h / 2))
wait_for "the setting saved" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT value FROM app_settings WHERE key = 'MODEL_IMAGES'\")\" = 'openai/e2e-model=yes' ]"
sleep 1
shot 03-can-see
ocr "$ART/03-can-see.png"
# (the refusal's toast may still be up: the warning's own words are looked for)
! grep -q "message with images" "$WORK/ocr.txt" || fail "the warning is still shown"
echo "e2e: \"This model can see images\" saved MODEL_IMAGES=openai/e2e-model=yes and the warning went"

# 4. Send: the image goes as an image_url part.
xdotool mousemove --window "$WID" $((WW * 2 / 5)) $((WH - 60)) click 1
sleep 0.3
xdotool key Return
wait_for "the reply" bash -c "[ \"\$(sqlite3 -readonly '$WORK/data/playchat.db' \"SELECT count(*) FROM messages WHERE role = 'assistant' AND status = 'complete'\")\" = 1 ]"
req=$(request_with '"type":"image_url"')
[ "$(grep -o '"type":"image_url"' <<<"$req" | wc -l)" = 1 ] || fail "the request has no image part: ${req:0:600}"
echo "e2e: sent with its image as an image_url part"
sleep 1
shot 04-answered

# 5. Settings shows the model under "Images per model".
# (below the models group's fields: scrolled to, a few wheel clicks at a time)
xdotool key ctrl+comma
sleep 2
xdotool mousemove --window "$WID" $((WW - 280)) $((WH / 2))
found=""
for _ in 1 2 3 4 5 6; do
  xdotool click --repeat 5 --delay 60 5
  sleep 0.8
  shot 05-settings
  ocr "$ART/05-settings.png" "Images per model"
  grep -q "Images per model" "$WORK/ocr.txt" && found=1 && break
done
[ -n "$found" ] || { cat "$WORK/ocr.txt" >&2; fail "no \"Images per model\" in Settings"; }
xdotool click --repeat 3 --delay 60 5
sleep 0.8
shot 06-settings-list
ocr "$ART/06-settings-list.png" "Set by you"
grep -q "Set by you" "$WORK/ocr.txt" || { cat "$WORK/ocr.txt" >&2; fail "no list of the models set in Settings"; }
[ "$(grep -c "e2e-model" "$WORK/ocr.txt")" -ge 2 ] || { cat "$WORK/ocr.txt" >&2; fail "the model set is not listed in Settings"; }
echo "e2e: Settings › Models shows openai/e2e-model's control and lists it under Images per model ($ART/06-settings-list.png)"
echo "e2e: 5 passed, 0 failed"
