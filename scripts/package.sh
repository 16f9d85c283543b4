#!/usr/bin/env bash
# make package: playchat's packages, into build/dist/ —
#   playchat_<deb version>_amd64.deb         Debian/Ubuntu (nfpm, from the Go module cache)
#   playchat-<version>-amd64-installer.exe   Windows (Wails' cross build + Debian's makensis)
#   playchat-<version>-linux-amd64.tar.gz    other Linux distributions
# It packages the Linux binary `make build` made (build/bin/playchat, which
# must report the same version) and cross-builds the Windows one. Every
# package carries the one version of scripts/version.sh.
#
#   scripts/package.sh [deb|tar|windows]…   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:$(go env GOPATH)/bin"

VERSION=${VERSION:-$(scripts/version.sh)}
BIN=${BIN:-build/bin/playchat}
DIST=${DIST:-build/dist}
NFPM_MODULE=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2
ID=dev.playchat.Playchat
# The release date recorded in the AppStream file: the commit's date, so a
# rebuild of the same commit gives the same package contents.
DATE=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
# Debian versions: "+" and "." are fine, and 0.1.0+19.gabc > 0.1.0 as
# wanted; a "-" would start a Debian revision, so none is produced.
DEB_VERSION=$VERSION
# Windows wants numbers only (VERSIONINFO, the installer's VIProductVersion).
WIN_VERSION=$(sed -E 's/^([0-9]+\.[0-9]+\.[0-9]+).*/\1/' <<<"$VERSION")

die() { echo "package: $*" >&2; exit 1; }

[ -x "$BIN" ] || die "$BIN is missing: run make build first"
got=$("$BIN" version)
[ "$got" = "playchat $VERSION" ] || die "$BIN says \"$got\", not \"playchat $VERSION\": run make build again"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$DIST"

# stage_share DIR: the desktop entry, icons, AppStream file and docs under DIR/share.
stage_share() {
  local share=$1/share size
  install -Dm644 "build/linux/$ID.desktop" "$share/applications/$ID.desktop"
  # The template also lists the earlier releases, newest first; one that is
  # not older than this build (a build of that very tag, or of a checkout
  # without tags: 0.0.0+N) is left out, so the list stays in order.
  local drop=()
  local rel
  for rel in $(sed -n 's/.*<release version="\([^@"]*\)".*/\1/p' "build/linux/$ID.metainfo.xml"); do
    dpkg --compare-versions "$VERSION" gt "$rel" || drop+=(-e "/<release version=\"$rel\"/d")
  done
  sed "${drop[@]}" -e "s/@VERSION@/$VERSION/" -e "s/@DATE@/$DATE/" "build/linux/$ID.metainfo.xml" \
    >"$STAGE/$ID.metainfo.xml"
  install -Dm644 "$STAGE/$ID.metainfo.xml" "$share/metainfo/$ID.metainfo.xml"
  for size in 16 24 32 48 64 128 256 512; do
    mkdir -p "$share/icons/hicolor/${size}x${size}/apps"
    convert build/appicon.png -resize "${size}x${size}" -strip \
      "PNG32:$share/icons/hicolor/${size}x${size}/apps/$ID.png"
  done
  install -Dm644 CHANGELOG.md "$share/doc/playchat/CHANGELOG.md"
  install -Dm644 README.md "$share/doc/playchat/README.md"
  # The manual page (lintian: no-manual-page), compressed as Debian wants.
  mkdir -p "$share/man/man1"
  gzip -9n <docs/man/playchat.1 >"$share/man/man1/playchat.1.gz"
  chmod 644 "$share/man/man1/playchat.1.gz"
}

# stage_debian_docs DIR: what Debian policy wants in every package's doc
# folder (lintian: no-copyright-file, no-changelog): the machine-readable
# copyright file (with the Go modules the binary carries) and the Debian
# changelog of this native package, compressed.
stage_debian_docs() {
  local doc=$1/share/doc/playchat year years
  year=${DATE%%-*}
  years=2026
  [ "$year" = 2026 ] || years=2026-$year
  mkdir -p "$doc"
  {
    cat <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: playchat
Upstream-Contact: playchat developers <dev@playchat.dev>
Source: https://playchat.dev/

Files: *
Copyright: $years playchat developers
License: proprietary
Comment: The binary also carries these Go modules, each under its own
 license (MIT, BSD, Apache-2.0 and MPL-2.0 among them), which its source
 states:
COPYRIGHT
    go version -m "$BIN" | awk '$1 == "dep" { print " " $2 " " $3 }'
    cat <<COPYRIGHT

License: proprietary
 Copyright $year playchat developers. All rights reserved.
COPYRIGHT
  } >"$doc/copyright"
  chmod 644 "$doc/copyright"
  # dpkg-parsechangelog and lintian read this format; the release notes
  # themselves are CHANGELOG.md beside it.
  printf 'playchat (%s) unstable; urgency=medium\n\n  * Release notes: /usr/share/doc/playchat/CHANGELOG.md\n\n -- playchat developers <dev@playchat.dev>  %s\n' \
    "$DEB_VERSION" "$(date -u -R -d "$DATE 12:00")" | gzip -9n >"$doc/changelog.gz"
  chmod 644 "$doc/changelog.gz"
}

# shlib_depends: the Depends line for the binary's shared libraries, worked
# out by dpkg-shlibdeps from the runtime packages that provide them (GTK 3,
# WebKitGTK 4.1, …: the libraries, never their -dev packages).
shlib_depends() {
  local d=$STAGE/shlibs
  mkdir -p "$d/debian"
  printf 'Source: playchat\n\nPackage: playchat\nArchitecture: amd64\n' >"$d/debian/control"
  cp "$BIN" "$d/playchat"
  (cd "$d" && dpkg-shlibdeps -O -e playchat 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
}

package_deb() {
  local root=$STAGE/deb depends yaml=$STAGE/nfpm.yaml dep
  mkdir -p "$root"
  stage_share "$root/usr"
  stage_debian_docs "$root/usr"
  depends=$(shlib_depends)
  [ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies"
  {
    cat <<YAML
name: playchat
arch: amd64
platform: linux
version: "$DEB_VERSION"
version_schema: none
section: net
priority: optional
maintainer: playchat developers <dev@playchat.dev>
description: |-
  Desktop chat with any OpenAI-compatible model, with a memory
  playchat builds the context of every turn from shared notes, a local
  Markdown knowledge base, long-term memory and the recent history.
  Japanese and English user interface.
vendor: playchat developers
homepage: https://playchat.dev/
license: LicenseRef-proprietary
contents:
  - src: $BIN
    dst: /usr/bin/playchat
    file_info: {mode: 0755}
  - src: $root/usr/share/
    dst: /usr/share/
    type: tree
depends:
YAML
    # one entry per dependency ("a (>= 1) | b" stays one entry)
    tr ',' '\n' <<<"$depends" | sed 's/^ *//' | while IFS= read -r dep; do
      [ -n "$dep" ] && printf '  - "%s"\n' "$dep"
    done
  } >"$yaml"
  rm -f "$DIST"/playchat_*_amd64.deb
  go run "$NFPM_MODULE" package --config "$yaml" --packager deb --target "$DIST/playchat_${DEB_VERSION}_amd64.deb" >/dev/null
  echo "package: $DIST/playchat_${DEB_VERSION}_amd64.deb"
}

package_tar() {
  local name=playchat-$VERSION-linux-amd64 dir
  dir=$STAGE/tar/$name
  mkdir -p "$dir"
  install -Dm755 "$BIN" "$dir/bin/playchat"
  stage_share "$dir"
  cp README.md CHANGELOG.md "$dir/"
  rm -f "$DIST"/playchat-*-linux-amd64.tar.gz
  tar -C "$STAGE/tar" --owner=0 --group=0 --numeric-owner -czf "$DIST/$name.tar.gz" "$name"
  echo "package: $DIST/$name.tar.gz"
}

# package_windows: Wails cross-builds playchat.exe (no cgo on Windows) with
# its icon, manifest and version resource, and wraps it in the NSIS
# installer of build/windows/installer (64-bit, English and Japanese), which
# runs Microsoft's WebView2 bootstrapper when the runtime is missing — the
# way Wails documents. wails.json carries the numeric version meanwhile.
package_windows() {
  command -v makensis >/dev/null || die "makensis is missing (Debian package nsis): run scripts/deps.sh"
  cp wails.json "$STAGE/wails.json"
  # shellcheck disable=SC2064
  trap "cp '$STAGE/wails.json' wails.json; rm -rf '$STAGE'" EXIT
  python3 - "$WIN_VERSION" "$VERSION" <<'PY'
import json, sys
d = json.load(open("wails.json"))
d.setdefault("info", {})["productVersion"] = sys.argv[1]
d["info"]["comments"] = "playchat " + sys.argv[2]
open("wails.json", "w").write(json.dumps(d, indent=2, ensure_ascii=False) + "\n")
PY
  [ -f frontend/dist/index.html ] || die "frontend/dist is not built: run make build first"
  rm -f build/bin/playchat.exe build/bin/playchat-amd64-installer.exe
  # wails build rewrites frontend/wailsjs/runtime (same text, other file
  # modes): keep the committed modes, so the tree stays clean. -m and
  # -nosyncgomod keep it from tidying go.mod.
  local f modes=()
  for f in frontend/wailsjs/runtime/*; do modes+=("$(stat -c %a "$f") $f"); done
  wails build -platform windows/amd64 -nsis -s -skipbindings -m -nosyncgomod -trimpath \
    -ldflags "-w -s -X main.version=$VERSION" >"$STAGE/wails.log" 2>&1 ||
    { cat "$STAGE/wails.log" >&2; die "the Windows build failed"; }
  cp "$STAGE/wails.json" wails.json
  for f in "${modes[@]}"; do chmod "${f%% *}" "${f#* }"; done
  rm -f "$DIST"/playchat-*-amd64-installer.exe
  mv build/bin/playchat-amd64-installer.exe "$DIST/playchat-$VERSION-amd64-installer.exe"
  echo "package: $DIST/playchat-$VERSION-amd64-installer.exe (and build/bin/playchat.exe)"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(deb tar windows)
for t in "${targets[@]}"; do
  case $t in
    deb) package_deb ;;
    tar) package_tar ;;
    windows) package_windows ;;
    *) die "unknown target $t (deb, tar, windows)" ;;
  esac
done
