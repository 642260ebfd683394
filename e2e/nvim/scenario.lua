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
  wait(10000, 'code lenses', function()
    for _, l in ipairs(vim.lsp.codelens.get(buf)) do
      if l.command and l.command.title:find('Run node', 1, true) then
        return true
      end
    end
    return false
  end)
  -- Executing the lens reaches the server and gets a definite answer: a
  -- run, or a clear refusal (this sample has a broken reference, which
  -- the runner refuses; before the runner, "not available yet").
  local lens
  for _, l in ipairs(vim.lsp.codelens.get(buf)) do
    if l.command and l.command.command == 'flowcabal.runNode' then
      lens = l
    end
  end
  assert(lens and lens.command.arguments[1].node, 'no runNode lens with a node argument')
  local done, answer
  flowcabal.execute(buf, lens.command.command, lens.command.arguments[1], function(err, result)
    done, answer = true, { err = err, result = result }
  end)
  wait(10000, 'the runNode answer', function()
    return done
  end)
  if answer.err then
    local msg = tostring(answer.err.message or '')
    assert(msg:find('not available yet', 1, true) or msg:find('premis', 1, true),
      'runNode refused without saying why: ' .. vim.inspect(answer.err))
  else
    assert(answer.result ~= nil, 'runNode answered nothing')
  end
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
