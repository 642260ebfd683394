#!/usr/bin/env bash
# Web-novel scale (issue 21): every figure of the issue's table on projects
# of 500, 1,500 and 3,000 chapters of ~3,300 characters, made by
# `flowcabal bench genproject` from the Chinese books of ../shared/corpus.
#
#   bash scripts/bench-scale.sh                 # builds ./cmd/flowcabal
#   BIN=/tmp/fc SIZES="3000" bash scripts/bench-scale.sh
#   BIN=/tmp/fc-main GEN=/tmp/fc bash scripts/bench-scale.sh   # a build without bench genproject
#
# Prints one Markdown table (a column per size) and keeps the raw figures
# in $WORK/results.tsv. REPEAT=N measures each size N times (a fresh
# project each time) and prints the median with the range: on a shared
# machine one run can be a third off. Wall times are whole processes on this machine;
# RSS is the kernel's peak resident set (VmHWM / GNU time's %M).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"500 1500 3000"}
SEED=${SEED:-1}
WORK=${WORK:-$(mktemp -d /tmp/bench-scale.XXXXXX)}
mkdir -p "$WORK"
if [[ -z "${BIN:-}" ]]; then
	BIN=$WORK/flowcabal
	go build -o "$BIN" ./cmd/flowcabal
fi
GEN=${GEN:-$BIN}
go build -o "$WORK/scalebench" ./cmd/scalebench
RES=$WORK/results.tsv
: >"$RES"
rec() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$RES"; }

# timed CMD...: runs CMD, sets ELAPSED (s), CPU (user+system s) and
# PEAK (MB).
timed() {
	local t=$WORK/time.txt
	/usr/bin/time -f '%e %M %U %S' -o "$t" "$@" || true
	read -r ELAPSED kb u sy < <(tail -n 1 "$t")
	PEAK=$((kb / 1024))
	CPU=$(awk -v u="$u" -v s="$sy" 'BEGIN{printf "%.2f", u+s}')
}

REPEAT=${REPEAT:-1}
for n in $SIZES; do
for ((round = 1; round <= REPEAT; round++)); do
	P=$WORK/wn$n
	rm -rf "$P"
	"$GEN" bench genproject --chapters "$n" --chapter-chars 3300 --seed "$SEED" "$P" >&2
	chars=$(cat "$P"/manuscript/*/content.md | wc -m)
	bytes=$(cat "$P"/manuscript/*/content.md | wc -c)
	rec "$n" chars "$chars"

	# index, cold (summaries left pending, as the issue measured)
	timed "$BIN" index --no-embed --json "$P" >"$WORK/index-cold-$n.json"
	rec "$n" index_cold_s "$ELAPSED"
	rec "$n" index_cold_rss_mb "$PEAK"
	rec "$n" index_cold_cpu_s "$CPU"

	# index after one chapter changed: the whole process, and the
	# indexing itself as the report times it
	mid=$(printf '%s/manuscript/chapter-%04d/content.md' "$P" $((n / 2)))
	printf '\n寶玉聽了，笑道：「這一回又改了。」\n' >>"$mid"
	timed "$BIN" index --no-embed --json "$P" >"$WORK/index-one-$n.json"
	rec "$n" index_one_s "$ELAPSED"
	rec "$n" index_one_work_s "$(sed -n 's/^  "seconds": \([0-9.e-]*\).*/\1/p' "$WORK/index-one-$n.json")"
	rec "$n" index_one_rolea_s "$(sed -n 's/^    "seconds": \([0-9.e-]*\).*/\1/p' "$WORK/index-one-$n.json")"
	rec "$n" index_one_rolea_cpu_s "$(sed -n 's/^    "cpu_seconds": \([0-9.e-]*\).*/\1/p' "$WORK/index-one-$n.json")"

	# the server: start -> first diagnostics, first hover, warm hover, RSS
	"$WORK/scalebench" -bin "$BIN" -project "$P" >"$WORK/server-$n.json"
	for k in first_diagnostics_ms first_hover_ms first_injected_ms first_injected_cpu_ms warm_hover_p50_ms warm_hover_cpu_ms edited_hover_p50_ms server_peak_rss_mb; do
		rec "$n" "$k" "$(sed -n "s/.*\"$k\":\([0-9.e+-]*\).*/\1/p" "$WORK/server-$n.json")"
	done

	# flowcabal context FILE NODE
	(cd "$P" && timed "$BIN" context workflows/next-chapter.flow 正文 >"$WORK/context-$n.txt"
		rec "$n" context_s "$ELAPSED"; rec "$n" context_rss_mb "$PEAK")

	# Role C over the whole book (CHECK=0 leaves it out)
	[[ "${CHECK:-1}" == 0 ]] || (cd "$P" && timed "$BIN" check manuscript/ >"$WORK/check-$n.txt" 2>"$WORK/check-$n.err"
		rec "$n" check_s "$ELAPSED"; rec "$n" check_rss_mb "$PEAK")

	db=$(stat -c %s "$P/.flowcabal/project.db")
	rec "$n" db_mb "$(awk -v d="$db" 'BEGIN{printf "%.1f", d/1048576}')"
	rec "$n" db_per_text "$(awk -v d="$db" -v b="$bytes" 'BEGIN{printf "%.2f", d/b}')"
done
done

# The table: one row per measure, one column per size.
awk -F'\t' -v sizes="$SIZES" '
BEGIN { split(sizes, S, " ")
	split("chars index_cold_s index_cold_cpu_s index_one_s index_one_work_s index_one_rolea_s index_one_rolea_cpu_s first_diagnostics_ms first_hover_ms first_injected_ms first_injected_cpu_ms warm_hover_p50_ms warm_hover_cpu_ms edited_hover_p50_ms context_s context_rss_mb server_peak_rss_mb check_s db_mb db_per_text index_cold_rss_mb check_rss_mb", K, " ")
}
{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3 }
function cell(k,   i, j, t, m, a) {
	m = n[k]
	if (m == 0) return ""
	for (i = 1; i <= m; i++) a[i] = v[k, i] + 0
	for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	if (m == 1) return v[k, 1]
	return sprintf("%g (%g–%g)", (m % 2) ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2, a[1], a[m])
}
END {
	printf "| measure |"; for (i = 1; i in S; i++) printf " %s chapters |", S[i]; print ""
	printf "|---|"; for (i = 1; i in S; i++) printf "---|"; print ""
	for (k = 1; k in K; k++) { printf "| %s |", K[k]; for (i = 1; i in S; i++) printf " %s |", cell(S[i] SUBSEP K[k]); print "" }
}' "$RES"
echo "raw figures: $RES" >&2
