#!/usr/bin/env bash
# timings.sh: the table of .artifacts/timings.txt (written by timed.sh
# during `make test`): each step's seconds, longest first, their sum, and
# the wall-clock time since `make test` began (.artifacts/test-start) —
# less than the sum, as the end-to-end lanes run side by side.
d="$(cd "$(dirname "$0")/.." && pwd)/.artifacts"
f=$d/timings.txt
[ -f "$f" ] || exit 0
echo "where the time went:"
sort -rn "$f" | awk '{ t = $1; $1 = ""; printf "  %5d s %s\n", t, $0; sum += t } END { printf "  %5d s summed over the steps (%d min %d s)\n", sum, sum / 60, sum % 60 }'
if [ -f "$d/test-start" ]; then
  wall=$(($(date +%s) - $(cat "$d/test-start")))
  printf "  %5d s from start to end of make test (%d min %d s)\n" "$wall" $((wall / 60)) $((wall % 60))
fi
