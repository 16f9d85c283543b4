#!/usr/bin/env bash
# timed.sh CMD…: runs CMD and appends how long it took ("<seconds> <CMD>")
# to .artifacts/timings.txt, so `make test` can say where its time goes
# (scripts/timings.sh prints the table). CMD's exit status is kept.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$ROOT/.artifacts"
t0=$(date +%s)
status=0
"$@" || status=$?
echo "$(($(date +%s) - t0)) $*" >>"$ROOT/.artifacts/timings.txt"
exit "$status"
