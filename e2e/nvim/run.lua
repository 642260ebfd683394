-- Headless Neovim end-to-end scenario for running a workflow and the three
-- roles, through the plugin's setup{}, against a scripted model server.
-- Run by e2e/nvim_run_test.go with FLOWCABAL_BIN, FLOWCABAL_PLUGIN,
-- FLOWCABAL_FILE (chapter-11.flow of a copy of the English sample) and
-- FLOWCABAL_REPORT. Steps:
--   hover provenance (Role A) · Run node from its lens: the output document
--   and the state lens · a planted contradiction in the output shows as a
--   diagnostic and its quick-fix applies (Role C) · the author's edit is
--   approved from a lens · a build from an intent is accepted and the new
--   nodes check clean (Role B).

local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local step, wait, request, find, text = H.step, H.wait, H.request, H.find, H.text

local function read(path)
  local f = io.open(path, 'r')
  if not f then
    return ''
  end
  local s = f:read('*a')
  f:close()
  return s
end

vim.opt.rtp:prepend(assert(os.getenv('FLOWCABAL_PLUGIN')))
local flowcabal = require('flowcabal')
flowcabal.setup({ cmd = { assert(os.getenv('FLOWCABAL_BIN')), 'serve' }, lspconfig = false, codelens_debounce = 10 })

local file = assert(os.getenv('FLOWCABAL_FILE'))
local root = vim.fn.fnamemodify(file, ':h:h')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local output = root .. '/.flowcabal/outputs/workflows/chapter-11/draft.md'

-- The lenses as the server sends them now (Neovim 0.7's codelens cache
-- skips a refresh while another is in flight, so ask directly).
local current = {}
local function lens_titles()
  current = request(buf, 'textDocument/codeLens', { textDocument = { uri = uri } }) or {}
  local titles = {}
  for _, l in ipairs(current) do
    if l.command then
      table.insert(titles, l.command.title)
    end
  end
  return table.concat(titles, ' | ')
end

local function lens(command, node)
  for _, l in ipairs(current) do
    if l.command and l.command.command == command and (not node or l.command.arguments[1].node == node) then
      return l
    end
  end
end

local function execute(command, args)
  local done, answer
  flowcabal.execute(buf, command, args, function(err, result)
    done, answer = true, { err = err, result = result }
  end)
  wait(10000, command .. ' to answer', function()
    return done
  end)
  return answer
end

step('attach', function()
  wait(10000, 'the client to attach', function()
    return flowcabal.client_id(buf) ~= nil
  end)
end)

step('hover provenance', function()
  local h = request(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = find(buf, 'node draft', 6) })
  local v = type(h.contents) == 'table' and (h.contents.value or '') or tostring(h.contents)
  assert(v:find('Would be injected now', 1, true) and v:find('meta/style-guide.md', 1, true), 'hover says: ' .. v)
  -- This Neovim's float shows Markdown as text: one row a source, by its
  -- project path, no file:// URIs.
  if vim.fn.has('nvim-0.11') == 0 then
    assert(not v:find('file://', 1, true) and v:find('\n| meta/style-guide.md | L', 1, true), 'the table is not compact: ' .. v)
  end
end)

step('run node', function()
  wait(10000, 'the Run node lens of draft', function()
    lens_titles()
    return lens('flowcabal.runNode', 'draft') ~= nil
  end)
  local l = lens('flowcabal.runNode', 'draft')
  local a = execute(l.command.command, l.command.arguments[1])
  assert(not a.err, 'runNode: ' .. vim.inspect(a.err))
  local seen = ''
  local ok = vim.wait(30000, function()
    seen = lens_titles()
    return seen:find('needs you', 1, true) ~= nil
  end, 50)
  assert(ok, 'the flagged draft never showed; lenses: ' .. seen .. '; output: ' .. read(output))
  assert(read(output):find('Elizabth', 1, true), 'the output document: ' .. read(output))
end)

local outbuf
step('output diagnostics and quick-fix', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(output))
  outbuf = vim.api.nvim_get_current_buf()
  -- The plugin attaches to the project's Markdown too; make sure here.
  if not flowcabal.client_id(outbuf) then
    vim.lsp.buf_attach_client(outbuf, flowcabal.client_id(buf))
  end
  local target
  wait(10000, 'the name finding on the output', function()
    for _, d in ipairs(vim.diagnostic.get(outbuf)) do
      if tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)) == 'name' then
        target = d
        return true
      end
    end
    return false
  end)
  local range = { start = { line = target.lnum, character = target.col }, ['end'] = { line = target.end_lnum, character = target.end_col } }
  local actions = request(outbuf, 'textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(outbuf) }, range = range, context = { diagnostics = {} } })
  local chosen
  for _, a in ipairs(actions) do
    if a.title:find('Replace with «Elizabeth»', 1, true) then
      chosen = a
    end
  end
  assert(chosen, 'no quick-fix in ' .. vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  assert(text(outbuf):find('Elizabeth came down', 1, true), 'after the fix: ' .. text(outbuf))
  vim.cmd('write')
end)

step('approve the edit', function()
  vim.api.nvim_set_current_buf(buf)
  local a = execute('flowcabal.edit', { uri = uri, node = 'draft' })
  assert(not a.err, 'edit: ' .. vim.inspect(a.err))
  wait(30000, 'the approved lens', function()
    local t = lens_titles()
    return t:find('✓ approved', 1, true) ~= nil and not t:find('needs you', 1, true)
  end)
end)

step('build', function()
  local a = execute('flowcabal.build', { uri = uri, text = 'add a self-critique pass after the draft' })
  assert(not a.err, 'build: ' .. vim.inspect(a.err))
  -- The suggestion is made in the background; accept once it is there.
  local accepted
  wait(20000, 'the suggestion to be accepted', function()
    local r = execute('flowcabal.buildAccept', { uri = uri })
    accepted = r
    return not r.err
  end)
  wait(10000, 'the new nodes in the buffer', function()
    return text(buf):find('node critique', 1, true) ~= nil
  end)
  wait(10000, 'the accepted workflow to check clean', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.severity == vim.diagnostic.severity.ERROR then
        return false
      end
    end
    return true
  end)
end)

H.finish()
