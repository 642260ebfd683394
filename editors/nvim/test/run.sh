#!/bin/sh
# Headless test of the Neovim plugin: editors/nvim/test/run.sh
# FLOWCABAL_BIN=path/to/flowcabal adds checks against the real server.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
plugin=$(dirname "$here")
exec nvim --headless -u NONE -i NONE \
  -c "set rtp^=$plugin" \
  -c "luafile $here/plugin_spec.lua" 2>&1
