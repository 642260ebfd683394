#!/usr/bin/env bash
# Role A against the whole-chapter BM25 baseline over a range of budgets:
# one line per budget with Role A's and the baseline's hits (recall and
# evidence), and a mark where Role A's evidence is not above the
# baseline's (= equal, < below) while the baseline still misses some.
#
# Usage: scripts/role-a-sweep.sh [queries.jsonl] [first last step]
#   default: ../shared/eval/role-a-queries.jsonl from 1000 to 20000 by 500
# Set BOOK and ENTITIES for another book (defaults: Pride and Prejudice
# and its entity files from ../shared); ENTITIES= (empty) runs without.
set -euo pipefail
cd "$(dirname "$0")/.."
queries=${1:-../shared/eval/role-a-queries.jsonl}
first=${2:-1000} last=${3:-20000} step=${4:-500}
book=${BOOK:-../shared/corpus/pride-and-prejudice}
entities=${ENTITIES-../shared/eval/pride-and-prejudice}
mkdir -p bin
go build -o bin/flowcabal ./cmd/flowcabal
args=(--book "$book" --queries "$queries" --baseline)
[ -n "$entities" ] && args+=(--entities "$entities")

printf '%8s  %-17s  %-17s\n' budget 'role A rec/ev' 'baseline rec/ev'
for ((b = first; b <= last; b += step)); do
  bin/flowcabal eval context "${args[@]}" --budget "$b" | awk -v b="$b" '
    /^baseline recall:/ { split($4, r, "[(/)]"); split($7, e, "[(/)]"); br = r[2]; be = e[2]; n = r[3] }
    /^recall:/          { split($3, r, "[(/)]"); split($6, e, "[(/)]"); ar = r[2]; ae = e[2] }
    END {
      mark = ""
      if (ae < be) mark = "<"; else if (ae == be && be < n) mark = "="
      printf "%8d  %3d/%-3d %3d/%-3d   %3d/%-3d %3d/%-3d %s\n", b, ar, n, ae, n, br, n, be, n, mark
    }'
done
