-- Headless checks of the FlowCabal Neovim plugin. Run with
--   editors/nvim/test/run.sh
-- (nvim --headless -u NONE, this plugin on the runtimepath). Prints one line
-- per check and a closing "N passed, N failed"; exits non-zero on failure.
--
-- FLOWCABAL_BIN=/path/to/flowcabal also runs the plugin against the real
-- server (diagnostics on a broken reference, the Run node lens).

local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local fixture = here .. '/fixtures/proj/workflows/sample.flow'
local fake = { 'node', here .. '/fake_server.js' }

local passed, failed = 0, 0
local function say(line)
  io.stdout:write(line .. '\n')
end
local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    say('ok   ' .. name)
  else
    failed = failed + 1
    say('FAIL ' .. name .. (detail and (': ' .. detail) or ''))
  end
end
local function eq(name, got, want)
  check(name, vim.deep_equal(got, want), 'got ' .. vim.inspect(got) .. ', want ' .. vim.inspect(want))
end

local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
end

vim.cmd('filetype plugin on')
vim.cmd('syntax on')

-- Filetype detection and ftplugin (before setup: ftdetect/ alone).
vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
local buf = vim.api.nvim_get_current_buf()
eq('ftdetect sets filetype flow', vim.bo[buf].filetype, 'flow')
eq('ftplugin commentstring', vim.bo[buf].commentstring, '# %s')

-- Syntax groups: the group at the first byte of `needle` (nth occurrence
-- on line lnum, 1-based), plus `offset` bytes.
local function group_at(lnum, needle, offset, nth)
  local line = vim.fn.getline(lnum)
  local s = 0
  for _ = 1, nth or 1 do
    s = line:find(needle, s + 1, true)
    if not s then
      return 'needle ' .. needle .. ' not on line ' .. lnum
    end
  end
  local id = vim.fn.synID(lnum, s + (offset or 0), 1)
  return vim.fn.synIDattr(id, 'name')
end

local syn_cases = {
  { 1, '#', 0, 'flowComment' },
  { 2, 'workflow', 0, 'flowWorkflowKeyword' },
  { 2, '断桥', 0, 'flowTitle' },
  { 3, 'budget', 0, 'flowAttribute' },
  { 3, '24000', 0, 'flowNumber' },
  { 6, 'use', 0, 'flowUseKeyword' },
  { 6, 'act-2.flow', 0, 'flowUsePath' },
  { 6, 'act2', 0, 'flowAlias' },
  { 8, 'node', 0, 'flowNodeKeyword' },
  { 8, '第十二章', 0, 'flowNodeName' },
  { 8, '断桥', 0, 'flowTitle' },
  { 9, 'model', 0, 'flowAttribute' },
  { 9, 'agent', 0, 'flowString' },
  { 10, '0.9', 0, 'flowNumber' },
  { 11, 'user', 0, 'flowPromptKeyword' },
  { 11, '"""', 0, 'flowPromptDelim' },
  { 12, '林黛玉', 0, 'flowPrompt' },
  { 12, '{{premise', 0, 'flowRefDelim' },
  { 12, 'premise', 0, 'flowRef' },
  { 12, '之后', 0, 'flowPrompt' },
  { 12, 'meta/style-guide', 0, 'flowKnowledgeRef' },
  { 12, '@', 0, 'flowKnowledgeRef' },
  { 13, '\\{{', 0, 'flowEscape' },
  { 13, 'not_a_ref', 0, 'flowPrompt' },
  { 13, '# not', 0, 'flowPrompt' },
  { 13, 'act2.final', 0, 'flowRef' },
  { 14, '"""', 0, 'flowPromptDelim' },
}
for _, c in ipairs(syn_cases) do
  eq(string.format('syntax line %d %q', c[1], c[2]), group_at(c[1], c[2], c[3], c[5]), c[4])
end

-- Pure helpers.
local fc = require('flowcabal')
eq('utf16_col ascii', fc.utf16_col('abc', 2), 2)
eq('utf16_col chinese', fc.utf16_col('林黛玉x', 6), 2)
eq('utf16_col astral', fc.utf16_col('a𠀀b', 5), 3)
eq('utf16_col emoji', fc.utf16_col('😀{{', 6), 4)
local proj = here .. '/fixtures/proj'
eq('find_root: flowcabal.toml', fc.find_root(fixture), proj)
local tmp = vim.fn.tempname()
vim.fn.mkdir(tmp .. '/novel/entities', 'p')
vim.fn.mkdir(tmp .. '/novel/drafts/deep', 'p')
vim.fn.mkdir(tmp .. '/loose', 'p')
eq('find_root: knowledge folder', fc.find_root(tmp .. '/novel/drafts/deep/x.flow'), tmp .. '/novel')
eq('find_root: file dir', fc.find_root(tmp .. '/loose/x.flow'), tmp .. '/loose')
eq('command_args', fc.command_args(buf, { node = 'x', text = 't', version = 2, position = { line = 1, character = 2 } }),
  { uri = vim.uri_from_fname(fixture), node = 'x', text = 't', version = 2, position = { line = 1, character = 2 } })
eq('command_args drops empty node', fc.command_args(buf, { node = '' }), { uri = vim.uri_from_fname(fixture) })

-- setup() against the scripted stand-in server.
local cmd = fake
local opts = {
  cmd = cmd,
  settings = { models = { writer = { baseUrl = 'http://127.0.0.1:9/v1', model = 'writer-m', apiKeyEnv = 'K' } } },
  api_key = 'sekret-123',
  codelens_debounce = 20,
  outline = 'nodes',
}
fc.setup(opts)
local names = { 'FlowRun', 'FlowRunNode', 'FlowRunFrom', 'FlowCancel', 'FlowApprove', 'FlowRetry', 'FlowEdit',
  'FlowFreeze', 'FlowUnfreeze', 'FlowRestore', 'FlowPersist', 'FlowBuild', 'FlowBuildAccept', 'FlowBuildReject',
  'FlowContext', 'FlowCheckChapter', 'FlowGraph', 'FlowCompare', 'FlowImport', 'FlowEntities', 'FlowFacts', 'FlowMove' }
for _, n in ipairs(names) do
  eq('user command :' .. n, vim.fn.exists(':' .. n), 2)
end

local ok_init = vim.wait(10000, function()
  local id = fc.client_id(buf)
  local c = id and vim.lsp.get_client_by_id(id)
  return c ~= nil and c.server_capabilities ~= nil and c.initialized ~= false
end, 20)
check('setup starts a client for the flow buffer', ok_init)
local client = vim.lsp.get_client_by_id(fc.client_id(buf) or -1)
check('client is named flowcabal', client and client.name == 'flowcabal')
eq('client root is the project', client and client.config.root_dir, proj)
eq('client offset encoding', client and client.offset_encoding, 'utf-16')

local function server_state()
  local res = vim.lsp.buf_request_sync(buf, 'fake/state', {}, 3000) or {}
  for _, r in pairs(res) do
    if r.result then
      return r.result
    end
  end
  return {}
end

check('diagnostics arrive', vim.wait(5000, function() return #vim.diagnostic.get(buf) > 0 end, 20))
check('code lens shown after attach', vim.wait(5000, function() return #vim.lsp.codelens.get(buf) > 0 end, 20))

local st = server_state()
check('workspace/configuration answered from settings',
  vim.wait(3000, function()
    st = server_state()
    return type(st.configuration) == 'table' and st.configuration[1] ~= nil
  end, 50),
  vim.inspect(st.configuration))
eq('configuration payload', st.configuration and st.configuration[1],
  { models = { writer = { baseUrl = 'http://127.0.0.1:9/v1', model = 'writer-m', apiKeyEnv = 'K' } } })
check('API key reaches the server env', st.envKeySet == true and st.envKeyLength == #'sekret-123')
eq('hosts of the setup base URLs are trusted with the key', fc.client_config(proj).cmd_env.FLOWCABAL_TRUSTED_HOSTS, '127.0.0.1:9')
check('API key not in initialize params', not vim.fn.json_encode(st.initialize or {}):find('sekret', 1, true))
check('API key not in configuration', not vim.fn.json_encode(st.configuration or {}):find('sekret', 1, true))
eq('outline option sent as initializationOptions', st.initialize and st.initialize.initializationOptions, { outline = 'nodes', inlayHints = true })
fc.setup(vim.tbl_extend('force', opts, { inlay_hints = false }))
eq('inlay_hints = false reaches initializationOptions', fc.client_config(proj).init_options.inlayHints, false)
fc.setup(opts)
check('client advertises showDocument', st.initialize and st.initialize.capabilities.window.showDocument.support == true)

local function run(cmdline)
  fc.last = nil
  vim.cmd(cmdline)
  local done = vim.wait(5000, function() return fc.last ~= nil end, 20)
  local s = server_state()
  return done, s.executed and s.executed[#s.executed]
end

-- Cursor on `premise` inside Chinese text: UTF-16 column 11.
local l12 = vim.fn.getline(12)
vim.api.nvim_win_set_cursor(0, { 12, l12:find('premise', 1, true) - 1 })
local done, ex = run('FlowRunNode')
check(':FlowRunNode answered', done)
eq(':FlowRunNode command', ex and ex.command, 'flowcabal.runNode')
eq(':FlowRunNode args', ex and ex.arguments,
  { { uri = vim.uri_from_fname(fixture), position = { line = 11, character = 11 } } })

-- After an emoji (two UTF-16 units): `act2.final` starts at column 51.
local l13 = vim.fn.getline(13)
vim.api.nvim_win_set_cursor(0, { 13, l13:find('act2.final', 1, true) - 1 })
done, ex = run('FlowRunFrom')
eq(':FlowRunFrom position after emoji', ex and ex.arguments[1].position, { line = 12, character = 51 })

done, ex = run('FlowRunNode premise')
eq(':FlowRunNode NODE', ex and ex.arguments[1].node, 'premise')
done, ex = run('FlowRun')
eq(':FlowRun command', ex and ex.command, 'flowcabal.runWorkflow')
done, ex = run('FlowBuild a chapter where Jane falls ill')
eq(':FlowBuild intent', ex and { ex.command, ex.arguments[1].text }, { 'flowcabal.build', 'a chapter where Jane falls ill' })
done, ex = run('FlowRetry make it 更短')
eq(':FlowRetry feedback', ex and { ex.command, ex.arguments[1].text }, { 'flowcabal.retry', 'make it 更短' })
done, ex = run('FlowRetry!')
eq(':FlowRetry! without feedback', ex and { ex.command, ex.arguments[1].text }, { 'flowcabal.retry', nil })
done, ex = run('FlowBuildReject! ')
eq(':FlowBuildReject!', ex and ex.command, 'flowcabal.buildReject')
done, ex = run('FlowBuildAccept keep act 2')
eq(':FlowBuildAccept modification', ex and ex.arguments[1].text, 'keep act 2')
done, ex = run('FlowRestore 3')
eq(':FlowRestore version', ex and { ex.command, ex.arguments[1].version }, { 'flowcabal.restoreVersion', 3 })
done, ex = run('FlowCompare 2')
eq(':FlowCompare N sends the output version as text', ex and { ex.command, ex.arguments[1].text, ex.arguments[1].version }, { 'flowcabal.compare', 'v2', nil })
done, ex = run('FlowCompare')
eq(':FlowCompare alone leaves the version to the server', ex and { ex.command, ex.arguments[1].text }, { 'flowcabal.compare', nil })
done, ex = run('FlowEdit')
eq(':FlowEdit sends the buffer', ex and ex.arguments[1].text,
  table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))
for _, pair in ipairs({ { 'FlowCancel', 'flowcabal.cancel' }, { 'FlowFreeze', 'flowcabal.freeze' },
  { 'FlowUnfreeze', 'flowcabal.unfreeze' }, { 'FlowContext', 'flowcabal.showContext' }, { 'FlowCheckChapter', 'flowcabal.checkChapter' } }) do
  done, ex = run(pair[1])
  eq(':' .. pair[1] .. ' command', ex and ex.command, pair[2])
end

-- A server error is shown to the user, not swallowed.
notes = {}
done = run('FlowPersist')
check(':FlowPersist error recorded', done and fc.last.err and fc.last.err.message:find('not available yet', 1, true) ~= nil)
local shown = false
for _, n in ipairs(notes) do
  if n.level == vim.log.levels.ERROR and n.msg:find('not available yet', 1, true) then
    shown = true
  end
end
check(':FlowPersist error shown via vim.notify', shown, vim.inspect(notes))

-- window/showDocument from the server is handled.
run('FlowApprove')
check('window/showDocument answered success', vim.wait(3000, function()
  local s = server_state()
  return type(s.showDocument) == 'table' and s.showDocument.success == true
end, 50))

-- Running the code lens goes through the client and reaches the server.
vim.api.nvim_win_set_cursor(0, { 1, 0 })
fc.last = nil
vim.lsp.codelens.run()
check('code lens run answered', vim.wait(5000, function() return fc.last ~= nil end, 20))
ex = server_state().executed
ex = ex and ex[#ex]
eq('code lens runs flowcabal.runNode with its arguments', ex and { ex.command, ex.arguments[1].node },
  { 'flowcabal.runNode', 'premise' })

-- Code lenses are refreshed after a change (debounced).
local before = server_state().codeLensRequests or 0
vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '# changed' })
vim.cmd('doautocmd TextChanged')
check('code lens refreshed after TextChanged', vim.wait(3000, function()
  return (server_state().codeLensRequests or 0) > before
end, 50))
vim.api.nvim_buf_set_lines(buf, 0, 1, false, {})
vim.bo[buf].modified = false

-- Prose the server checks (a manuscript chapter) is attached; other Markdown is not.
eq('is_prose manuscript', fc.is_prose('/p/manuscript/chapter-01/content.md'), true)
eq('is_prose output', fc.is_prose('/p/.flowcabal/outputs/workflows/w/draft.md'), true)
eq('is_prose meta', fc.is_prose('/p/meta/style-guide.md'), false)
eq('is_prose flow', fc.is_prose('/p/manuscript/x.flow'), false)
local chapter = proj .. '/manuscript/chapter-01/content.md'
vim.cmd('edit ' .. vim.fn.fnameescape(chapter))
vim.bo.filetype = 'markdown' -- no runtime filetype.vim under -u NONE: set it as it would
local cb = vim.api.nvim_get_current_buf()
check('manuscript chapter attached', vim.wait(5000, function() return fc.client_id(cb) ~= nil end, 20))
check('server saw the chapter opened', vim.wait(3000, function()
  for _, u in ipairs(server_state().opened or {}) do
    if u == vim.uri_from_fname(chapter) then
      return true
    end
  end
  return false
end, 50))
vim.cmd('edit ' .. vim.fn.fnameescape(proj .. '/meta/style-guide.md'))
vim.bo.filetype = 'markdown'
vim.wait(200)
check('other Markdown not attached', fc.client_id(0) == nil)
vim.cmd('buffer ' .. buf)

for _, c in pairs(vim.lsp.get_active_clients()) do
  vim.lsp.stop_client(c.id)
end

-- The real server, when its binary is given.
local bin = os.getenv('FLOWCABAL_BIN')
if bin and bin ~= '' then
  vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. '/workflows', 'p')
  vim.fn.writefile({ '' }, dir .. '/flowcabal.toml')
  vim.fn.writefile({
    'node premise {',
    '  user """',
    '    林黛玉 {{missing}} 之后',
    '  """',
    '}',
  }, dir .. '/workflows/real.flow')
  fc.setup({ cmd = { bin, 'serve' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/workflows/real.flow'))
  local rb = vim.api.nvim_get_current_buf()
  check('real server: client starts', vim.wait(10000, function()
    local id = fc.client_id(rb)
    local c = id and vim.lsp.get_client_by_id(id)
    return c ~= nil and c.server_capabilities ~= nil
  end, 20))
  check('real server: diagnostic on broken reference', vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(rb)) do
      if d.lnum == 2 and d.message:find('missing', 1, true) then
        return true
      end
    end
    return false
  end, 20), vim.inspect(vim.diagnostic.get(rb)))
  check('real server: Run node lens', vim.wait(10000, function()
    for _, l in ipairs(vim.lsp.codelens.get(rb)) do
      if l.command and l.command.title:find('Run node', 1, true) then
        return true
      end
    end
    return false
  end, 50), vim.inspect(vim.lsp.codelens.get(rb)))
  -- :FlowGraph draws with the CLI and hands the SVG to the browser program.
  local opened_file = vim.fn.tempname()
  local opener = vim.fn.tempname() .. '.sh'
  vim.fn.writefile({ '#!/bin/sh', 'printf "%s" "$1" > ' .. opened_file }, opener)
  vim.fn.setfperm(opener, 'rwxr-xr-x')
  fc.setup({ cmd = { bin, 'serve' }, browser = opener })
  local gerr, gpath
  fc.graph(rb, function(e, p)
    gerr, gpath = e, p
  end)
  check('graph: svg written', vim.wait(15000, function() return gerr ~= nil or gpath ~= nil end, 20) and gpath ~= nil,
    vim.inspect(gerr))
  local svg = gpath and table.concat(vim.fn.readfile(gpath), '\n') or ''
  check('graph: svg names the node', svg:find('data-node="premise"', 1, true) ~= nil, svg:sub(1, 200))
  check('graph: opened in the browser program', vim.wait(5000, function()
    return vim.fn.filereadable(opened_file) == 1 and vim.fn.readfile(opened_file)[1] == gpath
  end, 20))
  for _, c in pairs(vim.lsp.get_active_clients()) do
    vim.lsp.stop_client(c.id)
  end
end

-- A missing binary is reported, not swallowed.
do
  vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  notes = {}
  fc.setup({ cmd = { '/nonexistent/flowcabal', 'serve' } })
  local d = vim.fn.tempname()
  vim.fn.mkdir(d, 'p')
  vim.cmd('edit ' .. vim.fn.fnameescape(d .. '/x.flow'))
  local told = false
  for _, n in ipairs(notes) do
    if n.level == vim.log.levels.ERROR and n.msg:find('could not start /nonexistent/flowcabal serve', 1, true) then
      told = true
    end
  end
  check('missing binary reported', told, vim.inspect(notes))
  check('no client for the buffer', fc.client_id(0) == nil)
  fc.last = nil
  vim.cmd('FlowRunNode')
  check(':FlowRunNode without a server says so', fc.last and fc.last.err and fc.last.err.message:find('no FlowCabal server', 1, true) ~= nil,
    vim.inspect(fc.last))
end

say(string.format('%d passed, %d failed', passed, failed))
vim.cmd(failed == 0 and 'qall!' or 'cquit 1')
