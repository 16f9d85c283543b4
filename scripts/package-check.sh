#!/usr/bin/env bash
# Checks the packages of `make package` as a person installing them would
# (issue: an app people install and double-click):
#   - the .deb's metadata, dependencies and files; its desktop entry and
#     AppStream file validate;
#   - the .tar.gz holds a binary that reports the version;
#   - the Windows installer is a 64-bit NSIS executable around a PE32+ app;
#   - upgrade: the .deb of the previous release (v0.1.0, built from its tag)
#     is installed, used (a chat with a note written by a tool call, a
#     reminder, a setting), then this build's .deb is installed over it and
#     started — the installed binary opens its window under Xvfb
#     (screenshot) and migrates the database once; every session, note,
#     reminder and setting is still there;
#   - lintian passes without errors or warnings;
#   - removing the package leaves the data dir and nothing of the package.
# It installs packages system-wide (apt-get, as root or with sudo) and
# removes playchat again at the end. Artifacts: .artifacts/package/.
set -euo pipefail
if [ -z "${E2E_INNER:-}" ]; then
  export E2E_INNER=1
  exec dbus-run-session -- xvfb-run -a -n "${E2E_DISPLAY_FROM:-99}" -s "-screen 0 1280x900x24" "$0" "$@"
fi
cd "$(dirname "$0")/.."
ROOT=$PWD
ART=$ROOT/.artifacts/package
mkdir -p "$ART" && rm -f "$ART"/*
W=$(mktemp -d)
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 LC_ALL=C.UTF-8
VERSION=${VERSION:-$(scripts/version.sh)}
DEB=build/dist/playchat_${VERSION}_amd64.deb
TGZ=build/dist/playchat-$VERSION-linux-amd64.tar.gz
EXE=build/dist/playchat-$VERSION-amd64-installer.exe
ID=dev.playchat.Playchat
OLD_TAG=v0.1.0
OLD_COMMIT=d08cde0 # the commit v0.1.0 tags, for a checkout without tags
# The previous release's package version: 0.1.0 — unless this checkout has
# no tags, so this build calls itself 0.0.0+N.gHASH; then the old one is
# packaged as 0.0.0~0.1.0, which dpkg sorts below it (an upgrade, as it is).
OLD_VERSION=0.1.0
dpkg --compare-versions "$VERSION" gt "$OLD_VERSION" || OLD_VERSION=0.0.0~0.1.0
cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "${FAKE_PID:-}" ] && kill "$FAKE_PID" 2>/dev/null || true
  git worktree remove --force "$W/old" >/dev/null 2>&1 || true
  $SUDO apt-get remove -y -qq playchat >/dev/null 2>&1 || true
  rm -rf "$W"
}
trap cleanup EXIT
fail() { echo "package-check: FAIL: $*" >&2; exit 1; }
ok() { echo "package-check: $*"; }
for f in "$DEB" "$TGZ" "$EXE"; do [ -f "$f" ] || fail "$f is missing: run make package"; done

# --- the .deb: metadata and files -------------------------------------------
info=$(dpkg-deb --info "$DEB")
echo "$info" >"$ART/deb-info.txt"
grep -qx " Package: playchat" <<<"$info" || fail "the package is not named playchat"
grep -qx " Version: $VERSION" <<<"$info" || fail "the package's version is not $VERSION"
grep -qx " Architecture: amd64" <<<"$info" || fail "the package is not amd64"
depends=$(sed -n 's/^ Depends: //p' <<<"$info")
for lib in libgtk-3-0 libwebkit2gtk-4.1-0 libc6; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
grep -q -- '-dev\b' <<<"$depends" && fail "Depends names a -dev package: $depends"
contents=$(dpkg-deb --contents "$DEB" | awk '{print $6}')
echo "$contents" >"$ART/deb-contents.txt"
for f in ./usr/bin/playchat ./usr/share/applications/$ID.desktop ./usr/share/metainfo/$ID.metainfo.xml \
  ./usr/share/doc/playchat/CHANGELOG.md; do
  grep -qx "$f" <<<"$contents" || fail "the package lacks $f"
done
for s in 16 24 32 48 64 128 256 512; do
  grep -qx "./usr/share/icons/hicolor/${s}x$s/apps/$ID.png" <<<"$contents" || fail "no ${s}px icon"
done
mkdir -p "$W/deb" && dpkg-deb -x "$DEB" "$W/deb"
desktop-file-validate "$W/deb/usr/share/applications/$ID.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$W/deb/usr/share/metainfo/$ID.metainfo.xml" >"$ART/appstream.txt" 2>&1 ||
  { cat "$ART/appstream.txt" >&2; fail "appstreamcli validate"; }
grep -q "^StartupWMClass=playchat$" "$W/deb/usr/share/applications/$ID.desktop" || fail "no StartupWMClass"
grep -q "^Name\[ja\]=" "$W/deb/usr/share/applications/$ID.desktop" || fail "no Japanese name"
ok "the .deb has its files, a valid desktop entry and AppStream file, Depends: $depends ($(du -k "$DEB" | cut -f1) KiB)"
# Debian's own package checker: no error, no warning (issue 22).
lintian --fail-on error,warning --tag-display-limit 0 "$DEB" >"$ART/lintian.txt" 2>&1 ||
  { cat "$ART/lintian.txt" >&2; fail "lintian found errors or warnings"; }
for f in ./usr/share/doc/playchat/copyright ./usr/share/doc/playchat/changelog.gz ./usr/share/man/man1/playchat.1.gz; do
  grep -qx "$f" <<<"$contents" || fail "the package lacks $f"
done
ok "lintian passes with no error or warning; the package has its copyright, changelog and manual page"

# --- the .tar.gz --------------------------------------------------------------
mkdir -p "$W/tgz" && tar -C "$W/tgz" -xzf "$TGZ"
got=$("$W/tgz/playchat-$VERSION-linux-amd64/bin/playchat" version)
[ "$got" = "playchat $VERSION" ] || fail "the tarball's binary says $got"
ok "the .tar.gz's binary reports $got ($(du -k "$TGZ" | cut -f1) KiB)"

# --- Windows -------------------------------------------------------------------
kind=$(file -b "$EXE")
[[ $kind == "PE32+ executable (GUI) x86-64"* ]] || fail "the installer is not a 64-bit Windows executable: $kind"
# libmagic names only 32-bit NSIS stubs; every NSIS installer carries its
# first header's signature, 0xDEADBEEF then "NullsoftInst".
LC_ALL=C grep -aq $'\xef\xbe\xad\xdeNullsoftInst' "$EXE" || fail "the installer has no NSIS header"
kind_app=$(file -b build/bin/playchat.exe)
[[ $kind_app == "PE32+ executable (GUI) x86-64"* ]] || fail "playchat.exe is not a 64-bit Windows GUI app: $kind_app"
ok "the Windows installer is $kind ($(du -k "$EXE" | cut -f1) KiB)"

# --- the previous release's .deb --------------------------------------------------
old_rev=""
if git rev-parse -q --verify "$OLD_TAG^{commit}" >/dev/null; then old_rev=$OLD_TAG
elif git rev-parse -q --verify "$OLD_COMMIT^{commit}" >/dev/null; then old_rev=$OLD_COMMIT
fi
[ -n "$old_rev" ] || fail "neither $OLD_TAG nor $OLD_COMMIT is in this checkout: the upgrade test needs the history (git fetch --tags --unshallow)"
git worktree add --detach "$W/old" "$old_rev" >/dev/null 2>&1 || fail "git worktree add $old_rev"
ln -s "$ROOT/frontend/node_modules" "$W/old/frontend/node_modules"
(cd "$W/old/frontend" && npx vite build --logLevel error >"$W/old-vite.log" 2>&1) || { cat "$W/old-vite.log" >&2; fail "building $old_rev's frontend"; }
(cd "$W/old" && go build -tags desktop,production,webkit2_41 -ldflags "-w -s -X main.version=$OLD_VERSION" -o "$W/old/playchat-old" .) ||
  fail "building $old_rev"
(VERSION=$OLD_VERSION BIN="$W/old/playchat-old" DIST="$W/dist-old" "$ROOT/scripts/package.sh" deb >/dev/null) ||
  fail "packaging $old_rev"
OLD_DEB=$(ls "$W"/dist-old/playchat_"$OLD_VERSION"_amd64.deb)
ok "built the previous release's package from $old_rev"

$SUDO apt-get remove -y -qq playchat >/dev/null 2>&1 || true
$SUDO apt-get install -y -qq "$OLD_DEB" >"$W/apt-old.log" 2>&1 || { cat "$W/apt-old.log" >&2; fail "installing $OLD_DEB"; }
[ "$(/usr/bin/playchat version)" = "playchat $OLD_VERSION" ] || fail "the installed $OLD_VERSION says $(/usr/bin/playchat version)"

# Use it as a person would, with the data dir in a fresh home.
export HOME=$W/home
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME PLAYCHAT_DATA_DIR
mkdir -p "$HOME"
DATA=$HOME/.local/share/playchat
cat >"$W/script.json" <<'JSON'
[{"tool_call_chunks": ["[{\"index\":0,\"id\":\"c0\",\"type\":\"function\",\"function\":{\"name\":\"write_note\",\"arguments\":\"{\\\"mode\\\":\\\"create\\\",\\\"title\\\":\\\"買い物\\\",\\\"content\\\":\\\"牛乳と卵\\\",\\\"section\\\":\\\"家\\\"}\"}}]"]},
 {"chunks": ["メモしました。"]}]
JSON
build/bin/fakellm -addr 127.0.0.1:0 -script "$W/script.json" -reply "はい" >"$W/fake.out" 2>&1 &
FAKE_PID=$!
for _ in $(seq 50); do grep -q FAKELLM_URL "$W/fake.out" && break; sleep 0.1; done
URL=$(sed -n 's/^FAKELLM_URL=//p' "$W/fake.out")
[ -n "$URL" ] || fail "the fake model server did not start"
export OPENAI_BASE_URL=$URL DEFAULT_MODEL=openai/e2e-model
/usr/bin/playchat ask "買い物メモを作って" >"$W/ask.out" 2>&1 || { cat "$W/ask.out" >&2; fail "playchat 0.1.0 ask"; }
due=$(date -d 'tomorrow 09:00' +%Y-%m-%dT%H:%M)
/usr/bin/playchat reminders add --at "$due" "燃えるゴミの日" >"$W/rem.out" 2>&1 || { cat "$W/rem.out" >&2; fail "playchat 0.1.0 reminders add"; }
# A setting saved in the window lands in app_settings.
sqlite3 "$DATA/playchat.db" "INSERT INTO app_settings(key, value) VALUES ('UI_LANGUAGE', 'ja')"
counts() {
  sqlite3 -readonly "$DATA/playchat.db" "SELECT (SELECT count(*) FROM sessions) || ' sessions, ' ||
    (SELECT count(*) FROM messages) || ' messages, ' || (SELECT count(*) FROM note_pages) || ' notes, ' ||
    (SELECT count(*) FROM reminders WHERE content = '燃えるゴミの日') || ' reminders, ' ||
    (SELECT value FROM app_settings WHERE key = 'UI_LANGUAGE') || ' UI_LANGUAGE'"
}
migrations() { sqlite3 -readonly "$DATA/playchat.db" "SELECT count(*) FROM bun_migrations"; }
before=$(counts)
old_migrations=$(migrations)
[[ $before == "1 sessions, 2 messages, 1 notes, 1 reminders, ja UI_LANGUAGE" ]] ||
  fail "using 0.1.0 gave: $before"
ok "0.1.0 installed and used: $before ($old_migrations migrations)"

# --- upgrade to this build -----------------------------------------------------------
$SUDO apt-get install -y -qq "$ROOT/$DEB" >"$W/apt-new.log" 2>&1 || { cat "$W/apt-new.log" >&2; fail "installing $DEB over 0.1.0"; }
[ "$(dpkg-query -W -f='${Version}' playchat)" = "$VERSION" ] || fail "dpkg does not list $VERSION after the upgrade"
[ "$(/usr/bin/playchat version)" = "playchat $VERSION" ] || fail "the upgraded binary says $(/usr/bin/playchat version)"
# Started from the menu: no terminal, no .env; the window opens.
/usr/bin/playchat >"$W/app.log" 2>&1 &
APP_PID=$!
WID=""
for _ in $(seq 150); do
  WID=$(xdotool search --onlyvisible --name '^playchat$' 2>/dev/null | tail -1 || true)
  [ -n "$WID" ] && break
  kill -0 "$APP_PID" 2>/dev/null || { cat "$W/app.log" >&2; fail "the installed app exited at start-up"; }
  sleep 0.2
done
[ -n "$WID" ] || fail "the installed app opened no window"
geo=$(xdotool getwindowgeometry --shell "$WID")
scripts/xprobe.py drawn "$(sed -n 's/^X=//p' <<<"$geo")" "$(sed -n 's/^Y=//p' <<<"$geo")" \
  "$(sed -n 's/^WIDTH=//p' <<<"$geo")" "$(sed -n 's/^HEIGHT=//p' <<<"$geo")" 60000 >/dev/null ||
  fail "the installed app's window never drew"
sleep 2
import -window root "$ART/installed-window.png"
cls=$(xprop -id "$WID" WM_CLASS 2>/dev/null || true)
grep -q '"playchat"' <<<"$cls" || fail "the window's WM_CLASS ($cls) does not match StartupWMClass=playchat"
kill "$APP_PID"
for _ in $(seq 100); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$APP_PID" 2>/dev/null && fail "the installed app did not exit on SIGTERM"
APP_PID=""
# The installed binary carries the web extension that releases the window's
# memory after turns (issue 7), and WebKit loads it.
PLAYCHAT_SELFTEST=webrelease PLAYCHAT_DATA_DIR=$W/selftest-data XDG_CACHE_HOME=$W/selftest-cache \
  timeout 60 /usr/bin/playchat >"$W/selftest.log" 2>&1 || { cat "$W/selftest.log" >&2; fail "the installed app's webrelease self-test"; }
grep -q '^selftest: webrelease webkit in' "$W/selftest.log" || { cat "$W/selftest.log" >&2; fail "the installed app did not load its web extension"; }
after=$(counts)
[ "$after" = "$before" ] || fail "after the upgrade: $after (before: $before)"
new_migrations=$(migrations)
# (a release without schema changes applies none: the count never drops)
[ "$new_migrations" -ge "$old_migrations" ] || fail "the upgrade lost migrations ($new_migrations < $old_migrations)"
/usr/bin/playchat sessions list --json | grep -q '"id"' || fail "the upgraded CLI lists no session"
/usr/bin/playchat reminders list | grep -q "燃えるゴミの日" || fail "the upgraded CLI lists no reminder"
# A second start applies nothing more: the migration ran once.
/usr/bin/playchat sessions list >/dev/null
[ "$(migrations)" = "$new_migrations" ] || fail "a second start migrated again"
ok "upgraded $OLD_VERSION → $VERSION: the window opened ($ART/installed-window.png), the database went from $old_migrations to $new_migrations migrations once, and kept $after"

# --- removal keeps the data ------------------------------------------------------------
out=$($SUDO apt-get remove -y playchat 2>&1)
[ ! -e /usr/bin/playchat ] || fail "/usr/bin/playchat is still there after removal"
[ -f "$DATA/playchat.db" ] || fail "removal deleted the data dir"
# Nothing is left behind: not even the state "rc" (removed, configuration
# kept) that a maintainer script alone kept it in (issue 22).
state=$(dpkg-query -W -f='${db:Status-Abbrev}' playchat 2>/dev/null || true)
[ -z "$state" ] || [ "${state:0:2}" = "un" ] || fail "after removal dpkg lists playchat as \"$state\""
ok "removing the package left $DATA in place and nothing of the package (dpkg: ${state:-not listed})"
echo "package-check: all passed"
