#!/usr/bin/env bash
# The main job on the embedded default (bbolt, no API key needed): builds
# flowcabal, checks the sample project's workflows, indexes its knowledge
# into .flowcabal/project.db, shows the context Role A would give a node
# with its provenance, and runs the fact checks. With a model configured
# (flowcabal.toml plus the key in the environment it names), it also runs
# the chapter workflow end to end.
#
# Usage: scripts/demo.sh [project-dir]   (default: the Pride and Prejudice
# sample). It always works on a scratch copy of the project: the index, the
# outputs, the graph and the stand-in's endpoint go there, and neither the
# repository nor an author's project is touched.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
go build -o bin/flowcabal ./cmd/flowcabal || exit 1
fc=$PWD/bin/flowcabal

src=${1:-testdata/projects/pride-and-prejudice}
if [ ! -d "$src" ]; then
  echo "demo.sh: no project folder $src" >&2
  exit 2
fi
src=$(cd "$src" && pwd)
proj=$(mktemp -d)/$(basename "$src")
cp -r "$src" "$proj"
echo "project: $proj (a scratch copy of $src, which is left as it is)"

step() { echo; echo "\$ flowcabal $*"; "$fc" "$@"; local rc=$?; [ $rc -le 1 ] || echo "(exit $rc)"; }

step check "$proj/workflows"
step index "$proj"
# Role A: what the draft node would be given, and why (the assembled text
# itself is long: flowcabal context prints it all; here its provenance).
echo; echo "\$ flowcabal context $proj/workflows/chapter-11.flow draft   (provenance part)"
"$fc" context "$proj/workflows/chapter-11.flow" draft | sed -n '/^=== context/,$p'
# Role C: the deterministic fact checks, on the planted contradictions of
# the evaluation set when it is beside the repository.
if [ -f ../shared/eval/role-c-planted.jsonl ]; then
  step eval checks --project "$proj" --cases ../shared/eval/role-c-planted.jsonl
fi
step graph "$proj/workflows/chapter-11.flow" -o "$proj/chapter-11.svg"

key_env=$(sed -n 's/^api_key_env *= *"\(.*\)"/\1/p' "$proj/flowcabal.toml" | head -1)
if [ -n "$key_env" ] && [ -n "${!key_env:-}" ]; then
  step run "$proj/workflows/chapter-11.flow"
else
  # No key: show the runner with the scripted stand-in, which is NOT a
  # model (its text says so), on a copy whose flowcabal.toml points at it.
  echo; echo "(no \$${key_env:-API key} in the environment: the run below uses the scripted stand-in, not a model)"
  port=$(( 20000 + RANDOM % 20000 ))
  "$fc" scripted-llm --addr "127.0.0.1:$port" --quiet >/dev/null 2>&1 &
  llm=$!
  trap 'kill $llm 2>/dev/null' EXIT
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
  sed -i "s#^base_url = .*#base_url = \"http://127.0.0.1:$port/v1\"#" "$proj/flowcabal.toml"
  # What the run will send (Role A's context and the prompt, counted with
  # the model's tokeniser), then what it did: tokens only, as the sample
  # sets no [prices].
  step cost -estimate "$proj/workflows/chapter-11.flow"
  FLOWCABAL_API_KEY=stand-in step run "$proj/workflows/chapter-11.flow"
  step cost -by node "$proj"
  step graph "$proj/workflows/chapter-11.flow" -format mermaid
fi
