#!/usr/bin/env bash
# Prints playchat's version, the one version every build and package carries,
# from git tags: at a tag vX.Y.Z it is X.Y.Z; N commits after it,
# X.Y.Z+N.gHASH; with uncommitted changes, a ".dirty" suffix is added; with no
# tag at all, 0.0.0+N.gHASH (N = commits since the start). The form sorts
# correctly for dpkg and is a valid SemVer 2.0 version (build metadata after +).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "0.0.0+unknown"
  exit 0
fi
dirty=""
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && dirty=".dirty"
if desc=$(git describe --tags --long --match 'v[0-9]*' 2>/dev/null); then
  # v1.2.3-4-gabcdef0
  hash=${desc##*-}
  rest=${desc%-*}
  n=${rest##*-}
  tag=${rest%-*}
  base=${tag#v}
  if [ "$n" = 0 ] && [ -z "$dirty" ]; then
    echo "$base"
  else
    echo "$base+$n.$hash$dirty"
  fi
else
  n=$(git rev-list --count HEAD)
  echo "0.0.0+$n.g$(git rev-parse --short=7 HEAD)$dirty"
fi
