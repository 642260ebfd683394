#!/usr/bin/env bash
# Runs every Go fuzz target for a while (default 5s each). Usage: fuzz.sh [duration]
set -euo pipefail
cd "$(dirname "$0")/.."
t="${1:-5s}"
for f in $(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' . || true); do
  pkg="./$(dirname "${f#./}")"
  for name in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' "$f" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/'); do
    echo "fuzz $pkg $name ($t)"
    go test -run='^$' -fuzz="^${name}\$" -fuzztime="$t" "$pkg"
  done
done
