#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian machine with Go:
# Neovim (Debian's 0.7) for the editor end-to-end tests, Node.js and npm for
# the VS Code extension's checks, and the extension's locked npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

if [ -f editors/vscode/package-lock.json ]; then
  (cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error)
fi
