-- Headless Neovim end-to-end scenario for the FlowCabal language server.
-- Run by e2e/nvim_test.go:
--   nvim --headless -u NONE -i NONE -c 'luafile scenario.lua'
-- with FLOWCABAL_BIN (the server binary), FLOWCABAL_PLUGIN (editors/nvim),
-- FLOWCABAL_FILE (the .flow to open) and FLOWCABAL_REPORT (where each step
-- writes "ok NAME" or "FAIL NAME: why"). Exits 0 only if every step passed.

local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local step, wait, request, find, text = H.step, H.wait, H.request, H.find, H.text

local function diag_codes(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code))] = true
  end
  return out
end

-- The one line that decides which client starts the server: the plugin's
-- own setup{} (swap for a hand-rolled vim.lsp.start_client to debug).
vim.opt.rtp:prepend(assert(os.getenv('FLOWCABAL_PLUGIN')))
local flowcabal = require('flowcabal')
flowcabal.setup({ cmd = { assert(os.getenv('FLOWCABAL_BIN')), 'serve' }, lspconfig = false, codelens_debounce = 10 })

vim.cmd('edit ' .. vim.fn.fnameescape(assert(os.getenv('FLOWCABAL_FILE'))))
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local function pos(needle, delta)
  return { textDocument = { uri = uri }, position = find(buf, needle, delta) }
end

step('attach', function()
  wait(10000, 'the client to attach', function()
    return flowcabal.client_id(buf) ~= nil and next(vim.lsp.buf_get_clients(buf)) ~= nil
  end)
end)

step('diagnostics', function()
  wait(10000, 'the unknown-ref diagnostic', function()
    return diag_codes(buf)['unknown-ref'] == true
  end)
end)

step('hover', function()
  local h = request(buf, 'textDocument/hover', pos('{{premise}}', 3))
  local v = type(h.contents) == 'table' and (h.contents.value or '') or tostring(h.contents)
  assert(v:find('Where the story stands', 1, true), 'hover says: ' .. v)
end)

-- Neovim 0.7 draws no inlay hints: what the plugin's client receives over
-- the server's stdio is checked instead. The header hint (Role A's count,
-- made in the background, then refreshed) sits at the end of `node 大纲 {`,
-- in UTF-16 columns; the resource hint right after `{{@meta/style-guide}}`,
-- which follows an astral 😀.
step('inlay hints', function()
  local function at(needle)
    local p = find(buf, needle, 0)
    local line = vim.api.nvim_buf_get_lines(buf, p.line, p.line + 1, false)[1]
    local s = line:find(needle, 1, true)
    local _, col16 = vim.str_utfindex(line, s - 1 + #needle)
    return p.line, col16
  end
  local hl, hc = at('node 大纲 {')
  local rl, rc = at('{{@meta/style-guide}}')
  local header, resource, got
  wait(30000, 'the header hint of 大纲', function()
    got = request(buf, 'textDocument/inlayHint', { textDocument = { uri = uri },
      range = { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(buf), character = 0 } } })
    header, resource = nil, nil
    for _, h in ipairs(got or {}) do
      if h.position.line == hl and h.position.character == hc then
        header = h.label
      elseif h.position.line == rl and h.position.character == rc then
        resource = h.label
      end
    end
    return header ~= nil and header:match('^≈ [%d,]+ tok · %d+%% of 24k$') ~= nil
  end)
  assert(resource and resource:match('^~?%d+ tok$'), 'no hint after {{@meta/style-guide}}: ' .. vim.inspect(got))
end)

step('document symbols', function()
  local syms = request(buf, 'textDocument/documentSymbol', { textDocument = { uri = uri } })
  local names = {}
  local function walk(list)
    for _, s in ipairs(list or {}) do
      names[s.name] = true
      walk(s.children)
    end
  end
  walk(syms)
  for _, n in ipairs({ 'premise', '大纲', 'draft' }) do
    assert(names[n], 'no symbol ' .. n .. ' in ' .. vim.inspect(vim.tbl_keys(names)))
  end
end)

step('completion', function()
  local res = request(buf, 'textDocument/completion', pos('{{premise}}', 2))
  local items = res.items or res
  local labels = {}
  for _, it in ipairs(items) do
    labels[it.label] = true
  end
  assert(labels['premise'], 'completion labels: ' .. vim.inspect(vim.tbl_keys(labels)))
  assert(not labels['draft'], 'completion offers a node that would make a cycle')
end)

step('code lens', function()
  vim.lsp.codelens.refresh()
  -- The Run node lens of premise says what the run would send and cost
  -- (the estimate is made in the background, then the lenses redrawn).
  local estimated = '^▶ Run node · [%d,]+ tok in %+ ≤[%d,]+ out · ≈%$[%d.]+$'
  wait(10000, 'code lenses with the estimate', function()
    vim.lsp.codelens.refresh()
    for _, l in ipairs(vim.lsp.codelens.get(buf)) do
      if l.command and l.command.command == 'flowcabal.runNode' and l.command.arguments[1].node == 'premise'
        and l.command.title:find(estimated) then
        return true
      end
    end
    return false
  end)
  local h = request(buf, 'textDocument/hover', pos('premise "Where', 1))
  local hv = type(h.contents) == 'table' and (h.contents.value or '') or tostring(h.contents)
  assert(hv:find('Cost estimate: **', 1, true) and hv:find('tokens in', 1, true), 'node hover lacks the cost estimate: ' .. hv)
  -- The author types first, so the lenses were drawn for an older
  -- version; then clicks "Run node" on 大纲, whose chain (premise → 大纲)
  -- is valid while draft, downstream, has a broken reference. The run
  -- must happen and its output come back from the (scripted) model.
  local lenses = vim.lsp.codelens.get(buf)
  local function lens_of(node)
    for _, l in ipairs(lenses) do
      if l.command and l.command.command == 'flowcabal.runNode' and l.command.arguments[1].node == node then
        return l
      end
    end
    error('no runNode lens for ' .. node .. ' in ' .. vim.inspect(lenses))
  end
  local outline, draft = lens_of('大纲'), lens_of('draft')
  local line = find(buf, 'Summarise').line
  vim.api.nvim_buf_set_text(buf, line, 4, line, 4, { '请 ' })
  wait(10000, 'the edit to reach the server', function()
    return vim.lsp.util.buf_versions[buf] > outline.command.arguments[1].version
  end)
  local function run(lens)
    local done, answer
    flowcabal.execute(buf, lens.command.command, lens.command.arguments[1], function(err, result)
      done, answer = true, { err = err, result = result }
    end)
    wait(10000, 'the runNode answer', function()
      return done
    end)
    return answer
  end
  local answer = run(outline)
  assert(not answer.err and answer.result ~= nil and answer.result ~= vim.NIL, 'runNode 大纲: ' .. vim.inspect(answer))
  local out = vim.fn.getcwd() .. '/.flowcabal/outputs/workflows/ch12/大纲.md'
  wait(20000, 'the output of 大纲', function()
    local f = io.open(out)
    if not f then
      return false
    end
    local t = f:read('*a')
    f:close()
    return t:find('Beats from the scripted model', 1, true) ~= nil
  end)
  -- The node in error is refused, and the refusal names it and its line.
  answer = run(draft)
  local msg = answer.err and tostring(answer.err.message or '') or ''
  assert(msg:find('node draft cannot run', 1, true) and msg:find('ch12.flow:', 1, true) and msg:find('premis', 1, true),
    'runNode draft: ' .. vim.inspect(answer))
end)

step('rename', function()
  local edit = request(buf, 'textDocument/rename', vim.tbl_extend('force', pos('{{大纲}}', 3), { newName = '提纲' }))
  vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
  local t = text(buf)
  assert(t:find('node 提纲', 1, true) and t:find('{{提纲}}', 1, true) and not t:find('大纲', 1, true), 'after rename:\n' .. t)
end)

step('quick-fix', function()
  wait(10000, 'diagnostics after the rename', function()
    return diag_codes(buf)['unknown-ref'] == true and text(buf):find('提纲', 1, true) ~= nil
  end)
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if tostring(d.code) == 'unknown-ref' then
      target = d
    end
  end
  local range = {
    start = { line = target.lnum, character = 0 },
    ['end'] = { line = target.end_lnum, character = 200 },
  }
  local actions = request(buf, 'textDocument/codeAction', { textDocument = { uri = uri }, range = range, context = { diagnostics = {} } })
  local chosen
  for _, a in ipairs(actions) do
    if a.title:find('Replace with', 1, true) then
      chosen = chosen or a
    end
  end
  assert(chosen, 'no replace action in ' .. vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  wait(10000, 'the unknown-ref diagnostic to go', function()
    return not diag_codes(buf)['unknown-ref']
  end)
end)

H.finish()
