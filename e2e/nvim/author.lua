-- Headless Neovim end-to-end scenario of the author's first hour and of
-- moving a file, through the plugin's setup{} (inlay_hints = false) and
-- its commands, as an author types them. Run by e2e/nvim_author_test.go
-- with FLOWCABAL_BIN, FLOWCABAL_PLUGIN, FLOWCABAL_FILE (a workflow naming
-- {{@entities/characters/林黛玉}}) and FLOWCABAL_REPORT. Steps:
--   :FlowImport 原稿/書.txt, the preview shown, "Import" chosen · the
--   chapters on disk · :FlowEntities, 賈寶玉 picked then "write" · only its
--   draft written · in a chapter, the code action "Add 大觀園 as a location"
--   creates the draft in a buffer the author saves · :FlowMove of the
--   entity file rewrites the open workflow and saves it · the server was
--   told inlay hints are off · :FlowFacts in the moved entity file adds the
--   picked proposal to the unsaved buffer; the ones without evidence are
--   not offered.

local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local step, wait, request, find, text = H.step, H.wait, H.request, H.find, H.text

local function read(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

vim.opt.rtp:prepend(assert(os.getenv('FLOWCABAL_PLUGIN')))
local flowcabal = require('flowcabal')
flowcabal.setup({ cmd = { assert(os.getenv('FLOWCABAL_BIN')), 'serve' }, lspconfig = false, codelens_debounce = 10, inlay_hints = false })

-- As authors have it: Markdown chapters get their filetype (and the client).
vim.cmd('filetype on')
local file = assert(os.getenv('FLOWCABAL_FILE'))
local root = vim.fn.fnamemodify(file, ':h:h')
vim.cmd('cd ' .. vim.fn.fnameescape(root))
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()

-- The author's picks: each vim.ui.select answers with the first item
-- `pick` accepts (nil: Escape), and is recorded.
local picks = {}
local seen = {}
vim.ui.select = function(items, opts, on_choice)
  local labels = {}
  for _, it in ipairs(items) do
    table.insert(labels, opts.format_item and opts.format_item(it) or tostring(it))
  end
  local shown
  if flowcabal.last_preview and vim.api.nvim_buf_is_valid(flowcabal.last_preview) then
    shown = text(flowcabal.last_preview) -- the import's preview, open beside the prompt
  end
  table.insert(seen, { prompt = opts.prompt, labels = labels, preview = shown })
  local pick = table.remove(picks, 1)
  for i, l in ipairs(labels) do
    if pick and l:find(pick, 1, true) then
      return on_choice(items[i], i)
    end
  end
  on_choice(nil, nil)
end

step('attach', function()
  wait(10000, 'the client to attach', function()
    return flowcabal.client_id(buf) ~= nil
  end)
end)

step('inlay hints off', function()
  local c = vim.lsp.get_client_by_id(flowcabal.client_id(buf))
  assert(not c.server_capabilities.inlayHintProvider, 'the server offers inlay hints though setup{} turned them off')
  local hs = request(buf, 'textDocument/inlayHint', { textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 20, character = 0 } } })
  assert(hs == nil or #hs == 0, 'hints: ' .. vim.inspect(hs))
end)

step('FlowImport', function()
  local preview
  picks = { 'Import' }
  flowcabal.last = nil
  vim.cmd('FlowImport 原稿/書.txt')
  wait(15000, 'the preview', function()
    return #seen > 0
  end)
  preview = seen[1].preview
  assert(seen[1].prompt:find('Import 3 chapters', 1, true), 'prompt: ' .. seen[1].prompt)
  wait(15000, 'the chapters on disk', function()
    return read(root .. '/manuscript/chapter-02/content.md') ~= nil
  end)
  assert(preview and preview:find('第一回　開卷', 1, true) and preview:find('manuscript/chapter-00/content.md', 1, true), 'preview: ' .. tostring(preview))
  assert(read(root .. '/manuscript/chapter-00/content.md'):find('𝄞 𠀀', 1, true), 'the prologue lost its text')
  assert(flowcabal.last and flowcabal.last.result and flowcabal.last.result.message:find('3 new', 1, true), vim.inspect(flowcabal.last))
end)

step('FlowEntities', function()
  seen = {}
  picks = { '賈寶玉', 'Write the drafts' }
  flowcabal.last = nil
  vim.cmd('FlowEntities')
  wait(15000, 'the draft', function()
    return flowcabal.last and flowcabal.last.command == 'flowcabal.acceptEntities'
  end)
  assert(not flowcabal.last.err, vim.inspect(flowcabal.last.err))
  local first = table.concat(seen[1].labels, ' | ')
  assert(first:find('大觀園', 1, true) and not first:find('林黛玉', 1, true), 'offered: ' .. first)
  local draft = read(root .. '/entities/characters/賈寶玉.md')
  assert(draft and draft:find('draft: true', 1, true), 'draft: ' .. tostring(draft))
  assert(read(root .. '/entities/locations/大觀園.md') == nil, 'a place not chosen got a draft')
end)

step('add entity code action', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/manuscript/chapter-01/content.md'))
  local ch = vim.api.nvim_get_current_buf()
  wait(10000, 'the client on the chapter', function()
    return flowcabal.client_id(ch) ~= nil
  end)
  local p = find(ch, '大觀園', 1)
  local line = vim.api.nvim_buf_get_lines(ch, p.line, p.line + 1, false)[1]
  vim.api.nvim_win_set_cursor(0, { p.line + 1, vim.str_byteindex(line, p.character, true) })
  seen = {}
  picks = { 'Add 大觀園 as a location' }
  local target = root .. '/entities/locations/大觀園.md'
  wait(15000, 'the draft buffer', function()
    if #seen == 0 then
      vim.lsp.buf.code_action()
      vim.wait(500, function()
        return #seen > 0
      end)
      if #seen == 0 or not table.concat(seen[#seen].labels, '|'):find('Add 大觀園', 1, true) then
        seen, picks = {}, { 'Add 大觀園 as a location' }
        return false
      end
    end
    local b = vim.fn.bufnr(target)
    return b ~= -1 and vim.api.nvim_buf_is_loaded(b) and text(b):find('name: 大觀園', 1, true) ~= nil
  end)
  local b = vim.fn.bufnr(target)
  assert(text(b):find('kind: location', 1, true), text(b))
  vim.api.nvim_buf_call(b, function()
    vim.cmd('write')
  end)
  assert((read(target) or ''):find('draft: true', 1, true), 'saved: ' .. tostring(read(target)))
end)

step('FlowMove', function()
  vim.cmd('buffer ' .. buf)
  flowcabal.last = nil
  vim.cmd('FlowMove entities/characters/林黛玉.md entities/characters/黛玉.md')
  wait(15000, 'the move', function()
    return flowcabal.last and flowcabal.last.command == 'flowcabal.move'
  end)
  assert(not flowcabal.last.err, vim.inspect(flowcabal.last.err))
  assert(read(root .. '/entities/characters/黛玉.md') and not read(root .. '/entities/characters/林黛玉.md'), 'not moved on disk')
  local t = text(buf)
  assert(t:find('{{@entities/characters/黛玉}}', 1, true) and t:find('{{@entities/characters/黛玉:L0}}', 1, true) and not t:find('林黛玉', 1, true), 'buffer: ' .. t)
  assert(not vim.bo[buf].modified, 'the rewritten workflow was left unsaved')
  assert(read(file) == t .. '\n', 'on disk: ' .. tostring(read(file)))
  -- A refused move says why and changes nothing.
  flowcabal.last = nil
  vim.cmd('FlowMove entities/characters/黛玉.md entities/characters/賈寶玉.md')
  wait(15000, 'the refusal', function()
    return flowcabal.last and flowcabal.last.command == 'flowcabal.move'
  end)
  assert(flowcabal.last.err and flowcabal.last.err.message:find('never overwrites', 1, true), vim.inspect(flowcabal.last))
  assert(read(root .. '/entities/characters/黛玉.md'), 'a refused move moved')
end)

step('FlowFacts', function()
  -- The project gets an agent model (the scripted stand-in) for this step.
  local toml = io.open(root .. '/flowcabal.toml', 'a')
  toml:write('\n[models.agent]\nbase_url = "' .. assert(os.getenv('FLOWCABAL_AGENT_URL')) .. '"\nmodel = "stand-in-agent"\n')
  toml:close()
  local target = root .. '/entities/characters/黛玉.md'
  local before = read(target)
  vim.cmd('edit ' .. vim.fn.fnameescape(target))
  local eb = vim.api.nvim_get_current_buf()
  -- An unsaved change of the author's, which the edit must keep.
  vim.api.nvim_buf_set_lines(eb, -1, -1, false, { '今天改的 𝄞。' })
  seen = {}
  picks = { 'manner: 笑', 'Add the 1 chosen' }
  flowcabal.last = nil
  vim.cmd('FlowFacts')
  wait(15000, 'the facts added', function()
    return flowcabal.last and flowcabal.last.command == 'flowcabal.acceptFacts'
  end)
  assert(not flowcabal.last.err, vim.inspect(flowcabal.last.err))
  local offered = table.concat(seen[1].labels, ' | ')
  assert(offered:find('manner: 笑 — chapter 1', 1, true) and offered:find('“黛玉笑道：“是。””', 1, true), 'offered: ' .. offered)
  assert(offered:find('from chapter 2, location: 大觀園', 1, true), 'offered: ' .. offered)
  assert(not offered:find('揚州', 1, true) and not offered:find('賈政', 1, true), 'a proposal without evidence was offered: ' .. offered)
  wait(5000, 'the edit in the buffer', function()
    return text(eb):find('facts: { manner: 笑 }', 1, true) ~= nil
  end)
  local t = text(eb)
  assert(t:find('今天改的 𝄞。', 1, true) and t:find('林如海之女。', 1, true) and not t:find('大觀園', 1, true), 'buffer: ' .. t)
  assert(read(target) == before, 'the file was written before the author saved')
  vim.cmd('write')
  assert(read(target) == t .. '\n', 'saved: ' .. tostring(read(target)))
end)

H.finish()
