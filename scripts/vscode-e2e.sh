#!/usr/bin/env bash
# End-to-end test of the VS Code extension in real VS Code (code-server
# 4.100.3 in headless Chromium, driven by playwright-core).
#
#   scripts/vscode-e2e.sh            install (cached), package, run, screenshots
#   scripts/vscode-e2e.sh --install  only install code-server into the cache
#   FLOWCABAL_BIN=path scripts/vscode-e2e.sh   use that binary instead of building one
#
# code-server is cached in ${FLOWCABAL_CACHE:-$HOME/.cache/flowcabal}/code-server.
# Screenshots: test-artifacts/vscode/. Needs: node 20, npm, apt (chromium,
# ripgrep, libkrb5-dev), go (to build flowcabal).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${FLOWCABAL_CACHE:-$HOME/.cache/flowcabal}
cs_version=4.100.3
cs_dir=$cache/code-server-$cs_version
start=$(date +%s)

log() { printf '[vscode-e2e %3ss] %s\n' "$(( $(date +%s) - start ))" "$*"; }

need_apt() {
  local missing=()
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if ((${#missing[@]})); then
    log "apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

install_code_server() {
  if [[ -x $cs_dir/node_modules/code-server/out/node/entry.js || -f $cs_dir/.installed ]]; then
    return
  fi
  need_apt ripgrep libkrb5-dev chromium
  log "installing code-server $cs_version into $cs_dir (first run only)"
  rm -rf "$cs_dir.tmp"
  mkdir -p "$cs_dir.tmp"
  (
    cd "$cs_dir.tmp"
    export npm_config_nodedir=/usr npm_config_unsafe_perm=true npm_config_yes=true
    echo '{"name":"flowcabal-code-server","private":true}' >package.json
    npm install --no-audit --no-fund --ignore-scripts "code-server@$cs_version" >npm-install.log 2>&1
    cs=node_modules/code-server
    # argon2 is hoisted next to code-server: rebuild it here.
    npm rebuild argon2 >npm-rebuild.log 2>&1
    node -e 'require("argon2")' 
    (
      cd "$cs/lib/vscode"
      npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null 2>&1
      mkdir -p node_modules/@vscode/ripgrep/bin
      cp /usr/bin/rg node_modules/@vscode/ripgrep/bin/rg
      npm rebuild @parcel/watcher @vscode/spdlog kerberos native-watchdog node-pty @vscode/deviceid >/dev/null 2>&1
      ln -sfn node_modules node_modules.asar
      ln -sfn code-linux.sh bin/remote-cli/code-server
      ln -sfn browser-linux.sh bin/helpers/browser.sh
      cd extensions
      npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null 2>&1
      node ./postinstall.mjs >/dev/null 2>&1
    )
  )
  rm -rf "$cs_dir"
  mv "$cs_dir.tmp" "$cs_dir"
  touch "$cs_dir/.installed"
  log "code-server installed"
}

install_code_server
if [[ ${1:-} == --install ]]; then
  exit 0
fi
need_apt chromium fonts-wqy-microhei

work=$(mktemp -d "${TMPDIR:-/tmp}/flowcabal-vscode-e2e.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

if [[ -n ${FLOWCABAL_BIN:-} ]]; then
  bin=$FLOWCABAL_BIN # a binary built elsewhere (CI builds it once)
else
  log "building flowcabal"
  (cd "$repo" && go build -o "$work/bin/flowcabal" ./cmd/flowcabal)
  bin=$work/bin/flowcabal
fi

log "packaging the extension"
ext=$repo/editors/vscode
if [[ ! -d $ext/node_modules ]]; then
  (cd "$ext" && npm ci --no-audit --no-fund >/dev/null)
fi
(cd "$ext" && npm run -s compile && npm run -s package >"$work/vsce.log" 2>&1) || { cat "$work/vsce.log"; exit 1; }

# The workspace: the sample novel project (when the repo has one) plus a
# workflow with a known broken reference.
ws=$work/workspace
if [[ -d $repo/testdata/projects/pride-and-prejudice ]]; then
  cp -r "$repo/testdata/projects/pride-and-prejudice" "$ws"
else
  mkdir -p "$ws/meta"
  printf -- '---\ntitle: Style guide\n---\nPlain, warm, exact.\n' >"$ws/meta/style-guide.md"
fi
mkdir -p "$ws/workflows"
# A plot thread past due for the sample's chapter-11 workflow.
mkdir -p "$ws/entities/plot-threads"
cat >"$ws/entities/plot-threads/the-entail.md" <<'MD'
---
name: The entail
aliases: [the entail, entailed estate]
kind: plot-thread
opened: 3
due: 9
---
Longbourn passes to Mr. Collins on Mr. Bennet's death, for want of a son.
MD

# The scripted stand-in model server (not a model), when the CLI has it:
# it echoes every request but the canned answers of the e2e's script (the
# agent's proposed facts for the propose-facts step).
llm_port=$(free_port)
llm_url=
if "$bin" scripted-llm -h >/dev/null 2>&1; then
  "$bin" scripted-llm --addr "127.0.0.1:$llm_port" --script "$repo/editors/vscode/e2e/scripted-llm.json" \
    >"$work/scripted-llm.log" 2>&1 &
  pids+=($!)
  llm_url=http://127.0.0.1:$llm_port/v1
  log "scripted model stand-in on $llm_url"
else
  log "flowcabal scripted-llm is not available: the run step will fail"
  llm_url=http://127.0.0.1:$llm_port/v1
fi
cat >"$ws/flowcabal.toml" <<TOML
# e2e copy of the sample project, pointed at the scripted stand-in.
budget = 24000

[models.writer]
base_url = "$llm_url"
model = "scripted-writer"
api_key_env = "FLOWCABAL_API_KEY"

[models.agent]
base_url = "$llm_url"
model = "scripted-agent"
api_key_env = "FLOWCABAL_API_KEY"

# Prices per million tokens: the Run lenses show costs as well as tokens.
[prices.writer]
input = 0.15
output = 0.60

[prices.agent]
input = 0.15
output = 0.60
TOML
cat >"$ws/workflows/e2e.flow" <<'FLOW'
# e2e sample for the VS Code test
workflow "E2E · 断桥" {
  budget = 2000
}

node premise "Where the story stands" {
  model = "agent"
  user """
    Summarise where the story stands, in two sentences.
  """
}

node draft {
  user """
    从这里开始：{{premise}} 然后 {{premis}}。
  """
}
FLOW

# For the author steps: a workflow naming an entity at each level (inlay
# hints, a header hint after astral text, the call hierarchy, the explorer
# rename) and a manuscript to
# import whose chapters (a prologue, 98, 99) leave the sample's alone.
cat >"$ws/workflows/rename.flow" <<'FLOW'
node 甲 "𝄞 開場" {
  user """
    𝄞 一句：{{@entities/locations/meryton:L0}}
    概要：{{@entities/locations/meryton:L1}}
    全文：{{@entities/locations/meryton}}
  """
}

node 乙 {
  user """
    從 {{甲}} 寫起。
  """
}
FLOW
mkdir -p "$ws/import"
{
  printf '楔子\n\n開場一句話 𝄞 𠀀。\n\n'
  for n in 九十八 九十九; do
    printf '第%s回　開卷\n\n' "$n"
    for _ in 1 2 3 4 5 6; do
      printf '𝄞賈寶玉進來了。寶玉笑道：“好。”黛玉道：“去罷。”林黛玉聽了，便往大觀園來。寶玉說：“妹妹。”黛玉笑道：“是。”\n\n'
    done
  done
} >"$ws/import/書.txt"

cs=$cs_dir/node_modules/code-server
cfg=$work/code-server
mkdir -p "$cfg/data/User" "$cfg/ext"
cat >"$cfg/config.yaml" <<YAML
bind-addr: 127.0.0.1:0
auth: none
cert: false
YAML
cat >"$cfg/data/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "editor.hover.delay": 200,
  "editor.codeLens": true,
  "flowcabal.serverPath": "$bin",
  "flowcabal.models.writer.baseUrl": "$llm_url",
  "flowcabal.models.writer.model": "writer-from-vscode-settings"
}
JSON

log "installing the .vsix"
node "$cs/out/node/entry.js" --config "$cfg/config.yaml" --user-data-dir "$cfg/data" \
  --extensions-dir "$cfg/ext" --install-extension "$ext/flowcabal.vsix" >"$work/install-ext.log" 2>&1 \
  || { cat "$work/install-ext.log"; exit 1; }
ls "$cfg/ext" | grep -q '^flowcabal\.flowcabal-' || { echo "extension not installed"; cat "$work/install-ext.log"; exit 1; }

port=$(free_port)
log "starting code-server on 127.0.0.1:$port"
FLOWCABAL_API_KEY=e2e-scripted-key node "$cs/out/node/entry.js" --config "$cfg/config.yaml" \
  --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$cfg/data" --extensions-dir "$cfg/ext" "$ws" \
  >"$work/code-server.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 150); do
  if node -e 'require("http").get(process.argv[1],r=>process.exit(r.statusCode<500?0:1)).on("error",()=>process.exit(1))' "http://127.0.0.1:$port/healthz"; then
    break
  fi
  sleep 0.2
done

artifacts=$repo/test-artifacts/vscode
rm -rf "$artifacts"
mkdir -p "$artifacts"
log "running the browser steps"
rc=0
E2E_URL="http://127.0.0.1:$port/?folder=$ws" E2E_FILE=workflows/e2e.flow E2E_ARTIFACTS=$artifacts \
  E2E_LOGS=$cfg/data/logs E2E_SETTINGS=$cfg/data/User E2E_WORKSPACE=$ws E2E_LLM_LOG=$work/scripted-llm.log \
  node "$ext/out/e2e/run.js" || rc=$?

# Keep the logs next to the screenshots.
cp "$work/code-server.log" "$artifacts/code-server.log" 2>/dev/null || true
cp "$work/scripted-llm.log" "$artifacts/scripted-llm.log" 2>/dev/null || true
find "$cfg/data/logs" -name '*.log' -path '*exthost*' -exec cp {} "$artifacts/" \; 2>/dev/null || true
find "$cfg/data/logs" -name '*FlowCabal*' -exec cp {} "$artifacts/" \; 2>/dev/null || true
log "done (exit $rc); screenshots and logs in $artifacts"
exit $rc
