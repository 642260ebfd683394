#!/usr/bin/env bash
# Role C's name check against synthetic slips (scripts/role-c-slips.py): for
# each corpus book, N slips of the names declared in an entity set, put into
# real passages; prints the name recall and the findings on the originals.
#
# Usage: [BIN=flowcabal] [N=80] [SEED=1] [SET=fresh8] [OUT=DIR] scripts/role-c-slips.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  go build -o bin/flowcabal ./cmd/flowcabal
  BIN=$PWD/bin/flowcabal
fi
shared=${SHARED:-../shared}
out=${OUT:-$(mktemp -d)}
set_=${SET:-fresh8}
mkdir -p "$out"
for b in hongloumeng xiyouji pride-and-prejudice war-and-peace; do
  d=testdata/eval/$set_/$b
  SHARED=$shared python3 scripts/role-c-slips.py "$b" "$d" "$out/$b.jsonl" "${N:-80}" "${SEED:-1}"
  "$BIN" eval checks --project "$d" --cases "$out/$b.jsonl" --chapters "$shared/corpus/$b" >"$out/$b.txt" 2>&1 || true
  printf '%-22s %s   %s\n' "$b" "$(grep -E '^name ' "$out/$b.txt" | head -1 | awk '{print "recall " $3 "/" $2}')" \
    "$(grep -E '^false positives on' "$out/$b.txt" | sed 's/;.*//')"
done
echo "outputs: $out"
