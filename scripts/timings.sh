#!/usr/bin/env bash
# timings.sh: the table of .artifacts/timings.txt (written by timed.sh
# during `make test`): each step's seconds, longest first, and the total.
f="$(cd "$(dirname "$0")/.." && pwd)/.artifacts/timings.txt"
[ -f "$f" ] || exit 0
echo "where the time went:"
sort -rn "$f" | awk '{ t = $1; $1 = ""; printf "  %5d s %s\n", t, $0; sum += t } END { printf "  %5d s in all (%d min %d s)\n", sum, sum / 60, sum % 60 }'
