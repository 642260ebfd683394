#!/usr/bin/env bash
# Role C's whole-book false-alarm pass under every entity set that covers
# the four corpus books: the repository's own files (default) and each
# testdata/eval/freshN set written apart from the code. One line per set
# with the findings per book and their sum; each set's findings go to
# $OUT/<set>/<book>.txt (scripts/role-c-wholebook.sh). Unmodified books have
# no planted errors, so every finding is a false alarm unless it is a real
# misprint of the edition: a change should not raise the total.
#
# Usage: [BIN=flowcabal] [OUT=DIR] scripts/role-c-falsealarms.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  go build -o bin/flowcabal ./cmd/flowcabal
  BIN=$PWD/bin/flowcabal
fi
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
sets=(default)
for d in testdata/eval/fresh*/; do
  s=$(basename "$d")
  complete=1
  for b in pride-and-prejudice hongloumeng xiyouji war-and-peace; do
    [ -d "$d$b/entities" ] || complete=0
  done
  [ $complete = 1 ] && sets+=("$s")
done
printf '%-10s %6s %6s %6s %6s %6s\n' set pp hlm xyj wp all
total=0
for s in "${sets[@]}"; do
  ents=
  [ "$s" = default ] || ents=$s
  ENTS=$ents BIN=$BIN OUT=$out/$s bash scripts/role-c-wholebook.sh >"$out/$s.summary" 2>&1
  awk -v s="$s" '$1=="pride-and-prejudice"{pp=$2} $1=="hongloumeng"{h=$2} $1=="xiyouji"{x=$2} $1=="war-and-peace"{w=$2}
    END { printf "%-10s %6d %6d %6d %6d %6d\n", s, pp, h, x, w, pp+h+x+w }' "$out/$s.summary"
  total=$((total + $(awk '$1=="pride-and-prejudice"||$1=="hongloumeng"||$1=="xiyouji"||$1=="war-and-peace"{n+=$2} END{print n+0}' "$out/$s.summary")))
done
echo "total findings: $total (outputs: $out)"
