#!/usr/bin/env bash
# Role C's planted sets: runs `flowcabal eval checks` on every set under
# testdata/eval (and the shared set) and prints one row per set: hits per
# type, findings, precision and findings on the originals, then the sums
# by group. The full output of each set goes to $OUT/<set>.txt.
#
# Usage: [BIN=flowcabal] [OUT=DIR] [SETS="fresh6 fresh7"] scripts/role-c-sets.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  go build -o bin/flowcabal ./cmd/flowcabal
  BIN=$PWD/bin/flowcabal
fi
shared=${SHARED:-../shared}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
sets=()
if [ -n "${SETS:-}" ]; then
  for s in $SETS; do
    for d in testdata/eval/$s/*/; do [ -f "$d/planted.jsonl" ] && sets+=("${d%/}"); done
  done
else
  sets+=("$shared/eval/pride-and-prejudice")
  for f in $(find testdata/eval -name planted.jsonl | sort); do sets+=("$(dirname "$f")"); done
fi
printf '%-34s %6s %6s %6s %6s %6s %6s %5s\n' set name fact state world recall prec orig
for d in "${sets[@]}"; do
  book=$(basename "$d")
  cases=$d/planted.jsonl
  [ -f "$cases" ] || cases=$shared/eval/role-c-planted.jsonl
  name=${d#testdata/eval/}
  name=${name//\//-}
  name=${name#..-shared-eval-}
  "$BIN" eval checks --project "$d" --cases "$cases" --chapters "$shared/corpus/$book" >"$out/$name.txt" 2>&1 || true
  awk -v set="$name" '
    /^type +cases/ { t=1; next }
    t && (NF==0 || $2=="quick-fixes") { t=0 }
    t && ($1=="name"||$1=="fact"||$1=="state"||$1=="world") { h[$1]=$3"/"$2 }
    /^precision:/ { p=$2; r=$4 }
    /^false positives on/ { for (i=1;i<=NF;i++) if ($i ~ /chars\):$/) { o=$(i+1); sub(/;/,"",o) } }
    END { printf "%-34s %6s %6s %6s %6s %6s %6s %5s\n", set, h["name"], h["fact"], h["state"], h["world"], r, p, o }
  ' "$out/$name.txt"
done
echo "full outputs: $out"
