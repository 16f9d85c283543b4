#!/usr/bin/env bash
# timed.sh CMD…: runs CMD and appends how long it took and the CPU time it
# and the processes it waited for used ("<seconds> (cpu <seconds>) <CMD>")
# to .artifacts/timings.txt, so `make test` can say where its time goes
# (scripts/timings.sh prints the table). A step whose CPU time is close to
# its wall time on both cores' worth of lanes is bound by the CPU, not by
# waiting. CMD's exit status is kept.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$ROOT/.artifacts"
t0=$(date +%s)
status=0
"$@" || status=$?
# `times` prints the shell's own user/system time, then its children's.
cpu=$(times | sed -n 2p | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%d", s }')
echo "$(($(date +%s) - t0)) (cpu $cpu s) $*" >>"$ROOT/.artifacts/timings.txt"
exit "$status"
