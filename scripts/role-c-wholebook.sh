#!/usr/bin/env bash
# Role C's false-alarm pass over whole unmodified novels: each book of
# ../shared/corpus is imported (flowcabal import) into a fresh project with
# its entity files, and `flowcabal check manuscript/` lints it. Prints the
# findings per book and per type, the characters checked, the rate per
# 100k characters and the time the check took; the findings themselves go
# to $OUT/<book>.txt for judging (default OUT: a temporary folder).
#
# With ENTS=fresh (or fresh5, …) each book gets instead the entity files of
# that set (testdata/eval/$ENTS/<book>, written from the book by a writer
# who saw no code).
#
# BIN runs a given build instead of building ./cmd/flowcabal.
#
# Usage: [BIN=flowcabal] [OUT=DIR] [ENTS=fresh|fresh5] scripts/role-c-wholebook.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BIN:-}" ]; then
  fc=$BIN
else
  go build -o bin/flowcabal ./cmd/flowcabal
  fc=$PWD/bin/flowcabal
fi
shared=${SHARED:-../shared}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# book  entity folder (a project layout: entities/ and meta/)
books=(
  "pride-and-prejudice $shared/eval/pride-and-prejudice"
  "hongloumeng testdata/assemble/hongloumeng-entities"
  "xiyouji testdata/eval/xiyouji"
  "war-and-peace testdata/eval/war-and-peace"
)
if [ -n "${ENTS:-}" ]; then
  [ -d "testdata/eval/$ENTS" ] || { echo "no entity sets testdata/eval/$ENTS" >&2; exit 2; }
  books=()
  for b in pride-and-prejudice hongloumeng xiyouji war-and-peace; do
    books+=("$b testdata/eval/$ENTS/$b")
  done
fi
printf '%-22s %8s %10s %9s  %s\n' book findings chars per100k "by type; seconds"
for entry in "${books[@]}"; do
  read -r book ents <<<"$entry"
  proj=$work/$book
  "$fc" init "$proj" >/dev/null
  cp -r "$ents/entities/." "$proj/entities/"
  [ -d "$ents/meta" ] && cp -r "$ents/meta/." "$proj/meta/"
  "$fc" import "$shared/corpus/$book" --project "$proj" >/dev/null
  chars=$(cat "$proj"/manuscript/*/content.md | tr -d '[:space:]' | wc -m)
  start=$(date +%s%N)
  "$fc" check "$proj/manuscript" >"$out/$book.txt" || true
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }')
  n=$(wc -l <"$out/$book.txt")
  types=$(sed -n 's/.*\[\([a-z]*\)\]$/\1/p' "$out/$book.txt" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')
  printf '%-22s %8d %10d %9.1f  %s%.2f s\n' "$book" "$n" "$chars" "$(awk -v n="$n" -v c="$chars" 'BEGIN { print n * 100000 / c }')" "$types" "$secs"
done
echo "findings: $out"
