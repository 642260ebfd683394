#!/usr/bin/env bash
# The main job on the embedded default (bbolt, no API key needed): builds
# flowcabal, checks the sample project's workflows, indexes its knowledge
# into .flowcabal/project.db, shows the context Role A would give a node
# with its provenance, and runs the fact checks. With a model configured
# (flowcabal.toml plus the key in the environment it names), it also runs
# the chapter workflow end to end.
#
# Usage: scripts/demo.sh [project-dir]   (default: a scratch copy of the
# Pride and Prejudice sample, so the repository stays clean)
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
go build -o bin/flowcabal ./cmd/flowcabal || exit 1
fc=$PWD/bin/flowcabal

proj=${1:-}
if [ -z "$proj" ]; then
  proj=$(mktemp -d)/pride-and-prejudice
  cp -r testdata/projects/pride-and-prejudice "$proj"
fi
echo "project: $proj"

step() { echo; echo "\$ flowcabal $*"; "$fc" "$@"; local rc=$?; [ $rc -le 1 ] || echo "(exit $rc)"; }

step check "$proj/workflows"
step index "$proj"
step context "$proj/workflows/chapter-11.flow" draft
step eval checks --project "$proj" --cases ../shared/eval/role-c-planted.jsonl
key_env=$(sed -n 's/^api_key_env *= *"\(.*\)"/\1/p' "$proj/flowcabal.toml" | head -1)
if [ -n "$key_env" ] && [ -n "${!key_env:-}" ]; then
  step run "$proj/workflows/chapter-11.flow"
else
  echo; echo "(no \$${key_env:-API key} in the environment: skipping the model run; see README, 'Models')"
fi
