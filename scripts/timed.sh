#!/usr/bin/env bash
# timed.sh CMD…: runs CMD and appends how long it took and the CPU time it,
# the processes it waited for and the app's process groups (e2e-lib.sh) used ("<seconds> (cpu <seconds>) <CMD>")
# to .artifacts/timings.txt, so `make test` can say where its time goes
# (scripts/timings.sh prints the table). A step whose CPU time is close to
# its wall time on both cores' worth of lanes is bound by the CPU, not by
# waiting. CMD's exit status is kept.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$ROOT/.artifacts"
t0=$(date +%s)
status=0
# The end-to-end scripts add the CPU time of the programs they started in
# their own process groups (the app and WebKit) to this file (e2e-lib.sh).
export E2E_CPU_FILE
E2E_CPU_FILE=$(mktemp)
"$@" || status=$?
# `times` prints the shell's own user/system time, then its children's. It
# must run in this shell, not in a $(…) subshell (which has no children).
tf=$(mktemp)
times >"$tf"
hz=$(getconf CLK_TCK)
cpu=$(sed -n 2p "$tf" | awk -v groups="$(awk '{ s += $1 } END { print s + 0 }' "$E2E_CPU_FILE")" -v hz="$hz" \
  '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%d", s + groups / hz }')
rm -f "$tf" "$E2E_CPU_FILE"
echo "$(($(date +%s) - t0)) (cpu $cpu s) $*" >>"$ROOT/.artifacts/timings.txt"
exit "$status"
