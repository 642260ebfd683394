-- Headless Neovim end-to-end scenario for the author's loop, through the
-- plugin's setup{}, against a scripted model server. Run by
-- e2e/nvim_loop_test.go with FLOWCABAL_BIN, FLOWCABAL_PLUGIN,
-- FLOWCABAL_FILE (chapter-11.flow of a copy of the English sample whose
-- thread "The entail" is due by chapter 9) and FLOWCABAL_REPORT. Steps:
--   the overdue thread warned of on the workflow · the premise run · the
--   chapter it read edited and saved: its state lens says it is stale and
--   its re-run lens runs it again · on the output document, the "Compare
--   with v1" lens opens a diff of the two versions, the newer saying what
--   changed in the context · :FlowCompare 1 from the workflow does the same.

local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local step, wait, request, find, text = H.step, H.wait, H.request, H.find, H.text

vim.opt.rtp:prepend(assert(os.getenv('FLOWCABAL_PLUGIN')))
local flowcabal = require('flowcabal')
flowcabal.setup({ cmd = { assert(os.getenv('FLOWCABAL_BIN')), 'serve' }, lspconfig = false, codelens_debounce = 10 })

local file = assert(os.getenv('FLOWCABAL_FILE'))
local root = vim.fn.fnamemodify(file, ':h:h')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local output = root .. '/.flowcabal/outputs/workflows/chapter-11/premise.md'

local current = {}
local function lens_titles(b)
  b = b or buf
  current = request(b, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(b) } }) or {}
  local titles = {}
  for _, l in ipairs(current) do
    if l.command then
      table.insert(titles, l.command.title)
    end
  end
  return table.concat(titles, ' | ')
end

local function lens_titled(s)
  for _, l in ipairs(current) do
    if l.command and l.command.title:find(s, 1, true) then
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

step('overdue thread diagnostic', function()
  local found
  wait(10000, 'the overdue-thread warning', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      if code == 'overdue-thread' then
        found = d
        return true
      end
    end
    return false
  end)
  assert(found.severity == vim.diagnostic.severity.WARN, 'severity ' .. tostring(found.severity))
  assert(found.message:find('"The entail" was due by chapter 9', 1, true) and found.message:find('opened in chapter 3', 1, true), found.message)
  -- On the persist target of the node that writes chapter 11.
  local line = vim.api.nvim_buf_get_lines(buf, found.lnum, found.lnum + 1, false)[1]
  assert(line:find('persist = "manuscript/chapter-11"', 1, true), 'on line: ' .. line)
end)

step('run premise', function()
  local a = execute('flowcabal.runNode', { uri = uri, node = 'premise' })
  assert(not a.err, 'runNode: ' .. vim.inspect(a.err))
  local seen = ''
  assert(vim.wait(30000, function()
    seen = lens_titles()
    return seen:find('✓ approved', 1, true) ~= nil
  end, 50), 'lenses: ' .. seen)
end)

step('stale lens and re-run', function()
  -- The author edits the chapter the premise read and saves it.
  local ch10 = root .. '/manuscript/chapter-10/content.md'
  vim.cmd('edit ' .. vim.fn.fnameescape(ch10))
  vim.api.nvim_buf_set_lines(0, -1, -1, false, { '', 'Jane was better the next morning.' })
  vim.cmd('write')
  vim.api.nvim_set_current_buf(buf)
  local seen = ''
  assert(vim.wait(10000, function()
    seen = lens_titles()
    return lens_titled('⚠ stale: manuscript/chapter-10/content.md changed') ~= nil
  end, 50), 'no stale lens: ' .. seen)
  local rerun = lens_titled('Re-run')
  assert(rerun, 'no re-run lens: ' .. seen)
  local a = execute(rerun.command.command, rerun.command.arguments[1])
  assert(not a.err, 'rerun: ' .. vim.inspect(a.err))
  assert(vim.wait(30000, function()
    seen = lens_titles()
    return seen:find('v2', 1, true) ~= nil and not seen:find('stale', 1, true)
  end, 50), 'after the re-run: ' .. seen)
end)

local function diff_windows()
  local wins = {}
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.wo[w].diff then
      table.insert(wins, vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)))
    end
  end
  return wins
end

local function check_diff(what)
  local wins
  wait(10000, what .. ': two windows in diff mode', function()
    wins = diff_windows()
    return #wins == 2
  end)
  table.sort(wins)
  assert(wins[1]:find('premise.v1.md$') and wins[2]:find('premise.v2.md$'), 'diff of ' .. vim.inspect(wins))
  local right = table.concat(vim.fn.readfile(wins[2]), '\n')
  assert(right:find('## Since v1', 1, true) and right:find('content changed: manuscript/chapter-10/content.md', 1, true), 'the v2 side: ' .. right)
  assert(right:find('- tokens: ', 1, true) and right:find('- model: ', 1, true), 'the v2 side has no model or tokens: ' .. right)
end

step('compare lens opens a diff', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(output))
  local outbuf = vim.api.nvim_get_current_buf()
  if not flowcabal.client_id(outbuf) then
    vim.lsp.buf_attach_client(outbuf, flowcabal.client_id(buf))
  end
  local seen = ''
  assert(vim.wait(10000, function()
    seen = lens_titles(outbuf)
    return lens_titled('⇄ Compare with v1') ~= nil
  end, 50), 'no compare lens on the output: ' .. seen)
  -- The author runs the lens on the first line as Neovim does (several
  -- lenses there: Neovim asks which one; the author picks Compare).
  pcall(vim.lsp.codelens.refresh)
  wait(10000, 'the lenses in the buffer', function()
    for _, l in ipairs(vim.lsp.codelens.get(outbuf)) do
      if l.command and l.command.title:find('Compare', 1, true) then
        return true
      end
    end
    return false
  end)
  local asked
  vim.ui.select = function(items, opts, on_choice)
    for i, it in ipairs(items) do
      local title = opts.format_item and opts.format_item(it) or tostring(it)
      if title:find('Compare', 1, true) then
        asked = title
        return on_choice(it, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.lsp.codelens.run()
  check_diff('the lens')
  H.log('  lens picked: ' .. tostring(asked))
end)

step(':FlowCompare', function()
  vim.cmd('tabonly')
  vim.cmd('diffoff!')
  vim.cmd('only')
  vim.api.nvim_set_current_buf(buf)
  local p = find(buf, 'node premise', 6)
  vim.api.nvim_win_set_cursor(0, { p.line + 1, p.character })
  vim.cmd('FlowCompare 1')
  check_diff(':FlowCompare 1')
end)

H.finish()
