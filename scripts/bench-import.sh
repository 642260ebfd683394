#!/usr/bin/env bash
# Issue 20's speed figures: an author's whole book as one text file of
# about three million characters, brought in as a new user would
# (flowcabal init, import, index, entities suggest), each step timed (wall
# and CPU seconds, peak resident memory).
#
# Two books are made from ../shared/corpus, deterministic and kept out of
# the repository:
#   english  War and Peace, its 365 chapter files joined as written
#            ("Book One, Chapter I" headings), 3.2M characters;
#   chinese  910 `flowcabal bench genproject` chapters (3,300 characters
#            of the Chinese novels each, "第N章" headings, the novels' own
#            chapter headings left out) joined: 3M characters, as a web
#            novel is posted.
#
# Usage: [BIN=path/to/flowcabal] [WORK=dir] scripts/bench-import.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-$(mktemp -d /tmp/bench-import.XXXXXX)}
mkdir -p "$WORK"
if [[ -z "${BIN:-}" ]]; then
	BIN=$WORK/flowcabal
	go build -o "$BIN" ./cmd/flowcabal
fi
corpus=../shared/corpus

# english: the chapter files as one text, a blank line between them.
en=$WORK/war-and-peace.txt
for f in "$corpus"/war-and-peace/*.txt; do
	cat "$f"
	printf '\n\n'
done >"$en"

# chinese: generated web-novel chapters joined up to 3M characters.
gen=$WORK/gen
rm -rf "$gen"
"$BIN" bench genproject --chapters 910 --chapter-chars 3300 --seed 1 "$gen" >/dev/null
zh=$WORK/web-novel.txt
for f in "$gen"/manuscript/chapter-*/content.md; do
	# The headings of the novels cut into chapters (第一回 …) are left
	# out: a web novel's only headings are its own chapters'.
	sed -e 's/^# //' -e '/^第[一二三四五六七八九十百零〇]*回/d' "$f"
	printf '\n\n'
done >"$zh"

# timed runs "$@" and prints wall seconds, CPU seconds and peak MB.
timed() {
	local t=$WORK/time.txt
	/usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || {
		cat "$WORK/err.txt" >&2
		return 1
	}
	awk '{printf "%6.2f s  %6.2f s CPU  %5d MB", $1, $2 + $3, $4 / 1024}' "$t"
}

printf '%-9s %10s  %-34s %-34s %-34s %-34s\n' book chars init import "index (no embeddings)" "entities suggest"
for book in english chinese; do
	src=$en
	[[ $book == chinese ]] && src=$zh
	p=$WORK/project-$book
	rm -rf "$p"
	chars=$(wc -m <"$src")
	a=$(timed "$BIN" init "$p")
	b=$(timed "$BIN" import "$src" --project "$p")
	chapters=$(find "$p/manuscript" -name content.md | wc -l)
	c=$(timed "$BIN" index --no-embed "$p")
	d=$(timed "$BIN" entities suggest --project "$p" --json)
	printf '%-9s %10s  %-34s %-34s %-34s %-34s\n' "$book" "$chars" "$a" "$b" "$c" "$d"
	echo "          $chapters chapters imported; work files in $p" >&2
done
