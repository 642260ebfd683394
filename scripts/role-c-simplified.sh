#!/usr/bin/env bash
# Role C and the entity suggestions on simplified Chinese. The corpus books
# are printed in traditional characters, most authors of web novels write
# simplified ones: every Chinese planted set of testdata/eval (and the two
# books) is converted with OpenCC's t2s (cmd/simplify) into a temporary
# folder, and each set is measured in both forms with the same build.
# One line per set: recall and precision of `eval checks`, then the
# entity measure (found, aliases merged) for sets with 15 characters.
#
# Usage: [BIN=flowcabal] scripts/role-c-simplified.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
[ -d "$shared/corpus" ] || shared=/work/shared
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${BIN:-}" ]; then
  go build -o "$work/flowcabal" ./cmd/flowcabal
  BIN=$work/flowcabal
fi
go build -o "$work/simplify" ./cmd/simplify
for b in hongloumeng xiyouji; do
  "$work/simplify" "$shared/corpus/$b" "$work/corpus/$b"
done
checks() { # project cases chapters -> "recall R precision P"
  "$BIN" eval checks --project "$1" --cases "$1/planted.jsonl" --chapters "$2" 2>/dev/null |
    awk '/^precision:/ {print "recall", $4, "precision", $2}'
}
entities() { # book entities -> "found F merged M"
  "$BIN" eval entities --book "$1" --entities "$2" --min-alias 3 2>/dev/null |
    awk '/^found:/ {f=$2} /^aliases merged:/ {m=$3} END {if (f != "") print "found", f, "merged", m}'
}
printf '%-24s %-34s %-34s %s\n' set traditional simplified 'entities (trad | simp)'
for d in testdata/eval/*/hongloumeng testdata/eval/*/xiyouji testdata/eval/hongloumeng testdata/eval/xiyouji; do
  [ -f "$d/planted.jsonl" ] || continue
  b=$(basename "$d")
  s=$(basename "$(dirname "$d")")/$b
  "$work/simplify" "$d" "$work/sets/$s"
  ent=
  if [ "$(ls "$d/entities/characters" 2>/dev/null | wc -l)" -ge 15 ]; then
    ent="$(entities "$shared/corpus/$b" "$d") | $(entities "$work/corpus/$b" "$work/sets/$s")"
  fi
  printf '%-24s %-34s %-34s %s\n' "$s" "$(checks "$d" "$shared/corpus/$b")" \
    "$(checks "$work/sets/$s" "$work/corpus/$b")" "$ent"
done
