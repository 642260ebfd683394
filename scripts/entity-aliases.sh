#!/usr/bin/env bash
# Prints one table of the entity-suggestion measure for every entity set
# of the four shared books: found (of 15 in the top 40), aliases merged
# (the measure: declared aliases the book uses 3 times at least), the
# same over aliases the book uses at least once and over all declared
# aliases of the found characters, and the entries merging two people.
# BIN is a built flowcabal (default: built here into a temp file);
# SHARED the shared folder (default ../shared, else /work/shared).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-}
if [ -z "$SHARED" ]; then
	if [ -d ../shared/corpus ]; then SHARED=../shared; else SHARED=/work/shared; fi
fi
if [ -z "${BIN:-}" ]; then
	BIN=$(mktemp)
	trap 'rm -f "$BIN"' EXIT
	go build -o "$BIN" ./cmd/flowcabal
fi
figures() { # book set min-alias -> "found merged/counted merges"
	"$BIN" eval entities --book "$SHARED/corpus/$1" --entities "$2" --min-alias "$3" 2>/dev/null |
		awk '/^found:/ {split($2, f, "/"); found=f[1]}
			/^aliases merged:/ {am=$3}
			/^entries merging two people:/ {wm=$5}
			END {print found, am, wm}'
}
printf '%-44s %5s %9s %5s %9s %5s %9s %5s %6s\n' set found measure '%' "used>=1" '%' declared '%' wrong
for book in hongloumeng xiyouji pride-and-prejudice war-and-peace; do
	sets=()
	for d in testdata/eval/*/"$book" testdata/eval/"$book"; do
		[ -d "$d/entities" ] && sets+=("$d")
	done
	[ "$book" = pride-and-prejudice ] && sets+=("$SHARED/eval/pride-and-prejudice")
	[ "$book" = hongloumeng ] && sets+=(testdata/assemble/hongloumeng-entities)
	for s in "${sets[@]}"; do
		read -r found m3 wrong < <(figures "$book" "$s" 3)
		read -r _ m1 _ < <(figures "$book" "$s" 1)
		read -r _ m0 _ < <(figures "$book" "$s" -1)
		pct() { awk -v f="$1" 'BEGIN {split(f, a, "/"); if (a[2] == 0) print "-"; else printf "%.0f", 100*a[1]/a[2]}'; }
		name=${s#testdata/eval/}
		name=${name#"$SHARED"/}
		printf '%-44s %5s %9s %5s %9s %5s %9s %5s %6s\n' "$name" "$found" "$m3" "$(pct "$m3")" "$m1" "$(pct "$m1")" "$m0" "$(pct "$m0")" "$wrong"
	done
done
