#!/usr/bin/env bash
# Role C against synthetic cases made from the books themselves: for each
# corpus book, N cases made with an entity set's files, checked with the
# same files; prints the recall of the type and the findings on the
# originals. KIND=name (scripts/role-c-slips.py): slips of declared names
# put into real passages. KIND=state (scripts/role-c-stateswaps.py): the
# book's own sentences naming a present character, with the name of one
# away or dead as of that chapter put in its place (a floor: not every
# such sentence has its character in the scene). KIND=fact
# (scripts/role-c-factswaps.py): the book's own sentences naming an entity
# and holding one of its declared fact values, with another value of the
# same kind put in its place (a floor: not every such sentence predicates
# the value of the entity).
#
# Usage: [BIN=flowcabal] [KIND=name|state|fact] [N=80] [SEED=1] [SET=fresh8] [OUT=DIR] scripts/role-c-slips.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  go build -o bin/flowcabal ./cmd/flowcabal
  BIN=$PWD/bin/flowcabal
fi
shared=${SHARED:-../shared}
out=${OUT:-$(mktemp -d)}
set_=${SET:-fresh8}
kind=${KIND:-name}
gen=scripts/role-c-slips.py
[ "$kind" = state ] && gen=scripts/role-c-stateswaps.py
[ "$kind" = fact ] && gen=scripts/role-c-factswaps.py
mkdir -p "$out"
for b in hongloumeng xiyouji pride-and-prejudice war-and-peace; do
  d=testdata/eval/$set_/$b
  SHARED=$shared python3 "$gen" "$b" "$d" "$out/$b.jsonl" "${N:-80}" "${SEED:-1}"
  "$BIN" eval checks --project "$d" --cases "$out/$b.jsonl" --chapters "$shared/corpus/$b" >"$out/$b.txt" 2>&1 || true
  printf '%-22s %s   %s\n' "$b" "$(grep -E "^$kind +[0-9]" "$out/$b.txt" | head -1 | awk '{print "recall " $3 "/" $2}')" \
    "$(grep -E '^false positives on' "$out/$b.txt" | sed 's/;.*//')"
done
echo "outputs: $out"
