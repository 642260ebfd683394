#!/usr/bin/env bash
# Role A on every query set of the four corpus books, at 8k and 24k
# tokens, beside the whole-chapter baseline (plain BM25 over whole
# chapters at the same budget): one row per set and budget with recall and
# evidence of each, and the answer chapter's rank (median, and how often
# first). The full report of each run goes to $OUT/<set>-<budget>.txt.
#
# Usage: [BIN=flowcabal] [OUT=DIR] [SHARED=../shared] scripts/role-a-sets.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
	go build -o bin/flowcabal ./cmd/flowcabal
	BIN=$PWD/bin/flowcabal
fi
shared=${SHARED:-../shared}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
# name  book  queries  entity folder
sets=(
	"pp pride-and-prejudice $shared/eval/role-a-queries.jsonl $shared/eval/pride-and-prejudice"
	"pp-hard pride-and-prejudice $shared/eval/role-a-queries-hard.jsonl $shared/eval/pride-and-prejudice"
	"pp-r pride-and-prejudice testdata/eval/rolea/pride-and-prejudice.jsonl $shared/eval/pride-and-prejudice"
	"hlm hongloumeng testdata/assemble/hongloumeng-queries.jsonl testdata/assemble/hongloumeng-entities"
	"hlm-hard hongloumeng testdata/assemble/hongloumeng-hard-queries.jsonl testdata/assemble/hongloumeng-entities"
	"hlm-r hongloumeng testdata/eval/rolea/hongloumeng.jsonl testdata/assemble/hongloumeng-entities"
	"wp-r war-and-peace testdata/eval/rolea/war-and-peace.jsonl testdata/eval/war-and-peace"
	"xyj-r xiyouji testdata/eval/rolea/xiyouji.jsonl testdata/eval/xiyouji"
	"pp-r3 pride-and-prejudice testdata/eval/rolea3/pride-and-prejudice.jsonl $shared/eval/pride-and-prejudice"
	"hlm-r3 hongloumeng testdata/eval/rolea3/hongloumeng.jsonl testdata/assemble/hongloumeng-entities"
	"wp-r3 war-and-peace testdata/eval/rolea3/war-and-peace.jsonl testdata/eval/war-and-peace"
	"xyj-r3 xiyouji testdata/eval/rolea3/xiyouji.jsonl testdata/eval/xiyouji"
	"pp-r4 pride-and-prejudice testdata/eval/rolea4/pride-and-prejudice.jsonl $shared/eval/pride-and-prejudice"
	"hlm-r4 hongloumeng testdata/eval/rolea4/hongloumeng.jsonl testdata/assemble/hongloumeng-entities"
	"wp-r4 war-and-peace testdata/eval/rolea4/war-and-peace.jsonl testdata/eval/war-and-peace"
	"xyj-r4 xiyouji testdata/eval/rolea4/xiyouji.jsonl testdata/eval/xiyouji"
)
printf '%-9s %6s  %-13s %-13s %-14s %s\n' set budget "A rec/ev" "base rec/ev" "A rank (med, first)" "base rank"
for s in "${sets[@]}"; do
	read -r name book q ents <<<"$s"
	for bud in 8000 24000; do
		"$BIN" eval context --book "$shared/corpus/$book" --queries "$q" --budget "$bud" --entities "$ents" --baseline >"$out/$name-$bud.txt" 2>&1 || true
		awk -v s="$name" -v b="$bud" '
			/^baseline recall:/ { split($4, r, "[(/)]"); split($7, e, "[(/)]"); br = r[2]; be = e[2]; n = r[3] }
			/^recall:/ { split($3, r, "[(/)]"); split($6, e, "[(/)]"); ar = r[2]; ae = e[2] }
			/^answer chapter rank:/ { am = $5; af = $9 }
			/^baseline answer chapter rank:/ { bm = $6; bf = $10 }
			END { printf "%-9s %6d  %2d/%-2d %2d/%-2d   %2d/%-2d %2d/%-2d   %s %-10s %s %s\n", s, b, ar, n, ae, n, br, n, be, n, am, af, bm, bf }' "$out/$name-$bud.txt"
	done
done
echo "full reports: $out"
