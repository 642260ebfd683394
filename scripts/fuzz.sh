#!/usr/bin/env bash
# Runs every Go fuzz target for a bounded amount of work (default 5s
# each; a count of inputs such as "10000x" works too).
# Usage: fuzz.sh [amount]
#
# A finding makes the fuzzer write the failing input under testdata/fuzz and
# fail: that always fails this script. The fuzzer can also stop with a bare
# "context deadline exceeded" when its time ends while it minimises a new
# interesting input (a known go-test behaviour, no input written); such a
# run is tried once more, and fails this script if it happens again.
set -euo pipefail
cd "$(dirname "$0")/.."
t="${1:-5s}"
for f in $(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' . || true); do
  pkg="./$(dirname "${f#./}")"
  for name in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' "$f" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/'); do
    for attempt in 1 2; do
      echo "fuzz $pkg $name ($t)"
      if out=$(go test -run='^$' -fuzz="^${name}\$" -fuzztime="$t" "$pkg" 2>&1); then
        echo "$out" | tail -2
        break
      fi
      echo "$out"
      if [ "$attempt" = 2 ] || echo "$out" | grep -q "Failing input written"; then
        exit 1
      fi
      echo "(no failing input was written: the fuzzer's own deadline; trying once more)"
    done
  done
done
