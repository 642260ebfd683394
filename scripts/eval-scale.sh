#!/usr/bin/env bash
# Role A's quality at web-novel scale (issue 21): a book of N chapters made
# by `flowcabal bench genproject --distinct` (one pass of 紅樓夢 and 西遊記
# as they are, every other pass with its names disguised), indexed by
# `flowcabal index`, and each query set written on the source books asked
# from the chapter after the last by `flowcabal eval context --generated`,
# at 8k and 24k, beside the whole-chapter baseline.
#
#   bash scripts/eval-scale.sh QUERIES.jsonl...
#   BIN=/tmp/fc CHAPTERS=3000 WORK=/tmp/evalscale bash scripts/eval-scale.sh testdata/eval/scale/*.jsonl
#   CHAPTERS=1000 MINBACK=200 WORK=/tmp/evalscale1000 bash scripts/eval-scale.sh testdata/eval/scale/*.jsonl
#
# A book already in $WORK/book (with its store) is reused; set FRESH=1 to
# make it again. Prints the closing figures of each run; the full reports
# are kept in $WORK.
set -euo pipefail
cd "$(dirname "$0")/.."
CHAPTERS=${CHAPTERS:-3000}
SEED=${SEED:-1}
BUDGETS=${BUDGETS:-"8000 24000"}
# The fewest chapters back every answer must be (eval context refuses a
# query nearer than this); lower it for a shorter book (200 at 1,000 chapters).
MINBACK=${MINBACK:-1000}
WORK=${WORK:-$(mktemp -d /tmp/eval-scale.XXXXXX)}
mkdir -p "$WORK"
if [[ -z "${BIN:-}" ]]; then
	BIN=$WORK/flowcabal
	go build -o "$BIN" ./cmd/flowcabal
fi
B=$WORK/book
if [[ -n "${FRESH:-}" || ! -f $B/generated.json ]]; then
	rm -rf "$B"
	"$BIN" bench genproject --distinct --chapters "$CHAPTERS" --chapter-chars 3300 --seed "$SEED" "$B" >&2
	"$BIN" index --no-embed "$B" >&2
fi
for q in "$@"; do
	for b in $BUDGETS; do
		out=$WORK/$(basename "$q" .jsonl)-$b.txt
		"$BIN" eval context --generated "$B" --queries "$q" --budget "$b" --baseline --min-back "$MINBACK" >"$out"
		echo "== $q at $b ($out)"
		grep -E '^(book:|(baseline )?(strict recall|recall|evidence anywhere|queries with))' "$out"
	done
done
