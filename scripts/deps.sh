#!/usr/bin/env bash
# Installs everything playchat needs to build, run and test on Debian 12:
# system packages (as root, when missing), the Wails CLI and the frontend's
# npm packages. Safe to run again: it only does what is missing.
# Go and Node.js are not installed here (Debian 12's are too old): it checks
# them and says what to install.
#
# Under pipefail, never pipe a command into a reader that stops early
# (grep -q, head): the writer dies of SIGPIPE and the pipeline fails. Capture
# the output in a variable first.
set -euo pipefail
cd "$(dirname "$0")/.."

GO_MIN=1.26
NODE_MIN=20.19

# version_ge A B: is version A ≥ version B (dotted numbers)?
version_ge() {
  local sorted
  sorted=$(printf '%s\n%s\n' "$1" "$2" | sort -V)
  [ "${sorted%%$'\n'*}" = "$2" ]
}

problems=()
if ! command -v go >/dev/null; then
  problems+=("Go ${GO_MIN} or newer is needed and 'go' is not on PATH.")
else
  go_version=$(go env GOVERSION 2>/dev/null || true)
  go_version=${go_version#go}
  if ! version_ge "${go_version:-0}" "$GO_MIN"; then
    problems+=("Go ${GO_MIN} or newer is needed; found ${go_version:-an unknown version} ($(command -v go)).")
  fi
fi
if [ ${#problems[@]} -gt 0 ]; then
  problems+=("  Install it from https://go.dev/dl/ (e.g. tar -C /usr/local -xzf go${GO_MIN}.*.linux-amd64.tar.gz)
    and put /usr/local/go/bin first on PATH; Debian 12's golang package is 1.19.")
fi
if ! command -v node >/dev/null; then
  problems+=("Node.js ${NODE_MIN} or newer is needed and 'node' is not on PATH.")
  node_bad=1
else
  node_version=$(node --version 2>/dev/null || true)
  node_version=${node_version#v}
  if ! version_ge "${node_version:-0}" "$NODE_MIN"; then
    problems+=("Node.js ${NODE_MIN} or newer is needed (the frontend's Vite needs it); found ${node_version:-an unknown version} ($(command -v node)).")
    node_bad=1
  fi
fi
if [ -n "${node_bad:-}" ]; then
  problems+=("  Install Node.js 22 LTS from https://nodejs.org/en/download (or NodeSource's Debian packages);
    Debian 12's nodejs package is 18.")
fi
if [ ${#problems[@]} -gt 0 ]; then
  echo "deps: cannot continue:" >&2
  printf '  %s\n' "${problems[@]}" >&2
  exit 1
fi

WAILS_VERSION=v2.13.0
PKGS=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
      xvfb xauth dbus dbus-x11 imagemagick x11-utils xdotool tesseract-ocr sqlite3 python3-xlib
      python3-gi gir1.2-gtk-3.0
      fonts-noto-cjk fonts-noto-color-emoji nsis desktop-file-utils appstream lintian curl jq xclip)

missing=()
for p in "${PKGS[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export PATH="$PATH:$(go env GOPATH)/bin"
wails_version=""
if command -v wails >/dev/null; then
  wails_version=$(wails version 2>/dev/null || true)
fi
if [[ "$wails_version" != *"${WAILS_VERSION}"* ]]; then
  echo "deps: installing the Wails CLI ${WAILS_VERSION}"
  go install "github.com/wailsapp/wails/v2/cmd/wails@${WAILS_VERSION}"
fi

go mod download

# A symlinked node_modules is an install shared with other checkouts (git
# worktrees): npm ci would empty the directory it points to, under every
# checkout that uses it. It is left alone; a stale one is only reported.
if [ -L frontend/node_modules ]; then
  if [ ! -e frontend/node_modules/.package-lock.json ]; then
    echo "deps: frontend/node_modules is a symlink to a shared install that is missing or empty; not touching it" >&2
  fi
elif [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "deps: npm ci"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
fi
