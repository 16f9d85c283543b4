#!/usr/bin/env bash
# Installs everything playchat needs to build, run and test on Debian 12:
# system packages (as root, when missing), the Wails CLI and the frontend's
# npm packages. Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

WAILS_VERSION=v2.13.0
PKGS=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
      xvfb xauth dbus-x11 imagemagick x11-utils xdotool tesseract-ocr sqlite3 python3-xlib
      fonts-noto-cjk fonts-noto-color-emoji)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export PATH="$PATH:$(go env GOPATH)/bin"
if ! command -v wails >/dev/null || ! wails version 2>/dev/null | grep -q "${WAILS_VERSION}"; then
  echo "deps: installing the Wails CLI ${WAILS_VERSION}"
  go install "github.com/wailsapp/wails/v2/cmd/wails@${WAILS_VERSION}"
fi

go mod download

if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "deps: npm ci"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
fi
