-- FlowCabal for Neovim 0.7+: starts `flowcabal serve` for .flow buffers and
-- maps every server command (workspace/executeCommand) to a user command.
--
--   require('flowcabal').setup({ cmd = { 'flowcabal', 'serve' } })
--
-- See editors/nvim/README.md for options and suggested keymaps.

local M = {}

local api = vim.api
local uv = vim.loop

local NAME = 'flowcabal'

-- Folders that mark a project root when there is no flowcabal.toml; the
-- same list, in the same order, as project.KnowledgeDirs in the Go code.
M.knowledge_dirs = { 'meta', 'entities', 'profiles', 'manuscript', 'summaries' }

local defaults = {
  cmd = { 'flowcabal', 'serve' },
  -- Sent to the server for workspace/configuration, section "flowcabal":
  -- { models = { writer = { baseUrl = …, model = …, apiKeyEnv = … }, agent = …, embedding = … } }
  settings = {},
  -- Extra environment for the server process. The API key belongs here
  -- (FLOWCABAL_API_KEY), never in settings: settings travel over LSP.
  cmd_env = nil,
  -- A string or a function returning the key; passed as FLOWCABAL_API_KEY.
  api_key = nil,
  -- Use nvim-lspconfig when it is installed (false: always plain vim.lsp).
  lspconfig = true,
  -- How window/showDocument opens a file: 'vsplit', 'split', 'tab' or 'edit'.
  open = 'vsplit',
  -- Milliseconds to wait after the last change before refreshing code lenses.
  codelens_debounce = 250,
  on_attach = nil,
  capabilities = nil,
  -- Program that opens an SVG (graph); nil picks xdg-open / open.
  browser = nil,
  -- What the document symbols show of a .flow file: 'full' (nodes, prompts,
  -- text blocks and references) or 'nodes' (a table of contents).
  outline = 'full',
  -- How hovers name their sources: nil lets the server choose by version
  -- (project paths alone up to 0.10, whose float shows Markdown as text;
  -- links from 0.11), 'links' or 'compact' to decide.
  hover = nil,
  -- Token counts after each {{@path}} and Role A's count on each node's
  -- header line (inlay hints; shown by Neovim 0.10+).
  -- false turns them off in the server.
  inlay_hints = true,
}

local config = vim.deepcopy(defaults)
local root_clients = {} -- root dir -> client id, for Neovim 0.7
local timers = {} -- bufnr -> debounce timer
local augroup

--- The last command's outcome, for tests and for :messages-less debugging.
M.last = nil

-- Commands: user command -> server command and how its text is obtained.
-- text = 'required' | 'optional' | 'buffer' (the buffer's content).
M.commands = {
  { user = 'FlowRun', command = 'flowcabal.runWorkflow', desc = 'Run the whole workflow' },
  { user = 'FlowRunNode', command = 'flowcabal.runNode', node_arg = true, desc = 'Run the node at the cursor (or NODE)' },
  { user = 'FlowRunFrom', command = 'flowcabal.runFrom', node_arg = true, desc = 'Run from the node at the cursor downstream' },
  { user = 'FlowCancel', command = 'flowcabal.cancel', node_arg = true, desc = 'Cancel the run (or one node)' },
  { user = 'FlowApprove', command = 'flowcabal.approve', node_arg = true, desc = 'Approve the node output' },
  { user = 'FlowRetry', command = 'flowcabal.retry', text = 'optional', prompt = 'Retry feedback: ', desc = 'Retry the node with optional feedback' },
  { user = 'FlowEdit', command = 'flowcabal.edit', text = 'buffer', desc = 'Approve this buffer (the edited output) as the node output' },
  { user = 'FlowFreeze', command = 'flowcabal.freeze', node_arg = true, desc = 'Freeze the node output' },
  { user = 'FlowUnfreeze', command = 'flowcabal.unfreeze', node_arg = true, desc = 'Unfreeze the node' },
  { user = 'FlowRestore', command = 'flowcabal.restoreVersion', version = true, desc = 'Restore version N of the node output' },
  { user = 'FlowPersist', command = 'flowcabal.persist', node_arg = true, desc = 'Curate the output into its persist target' },
  { user = 'FlowBuild', command = 'flowcabal.build', text = 'required', prompt = 'Build intent: ', desc = 'Ask the agent to build a workflow from an intent' },
  { user = 'FlowBuildAccept', command = 'flowcabal.buildAccept', text = 'optional', prompt = 'Modification (empty to accept as is): ', desc = 'Accept the proposed build' },
  { user = 'FlowBuildReject', command = 'flowcabal.buildReject', text = 'optional', prompt = 'Reason (optional): ', desc = 'Reject the proposed build' },
  { user = 'FlowContext', command = 'flowcabal.showContext', node_arg = true, show = true, desc = 'Show the context injected for the node' },
  { user = 'FlowCheckChapter', command = 'flowcabal.checkChapter', desc = 'Ask the model to check this manuscript chapter' },
  { user = 'FlowCompare', command = 'flowcabal.compare', output_version = true, desc = 'Compare the node output with version N (default: the one before) in a diff' },
}

local function notify(msg, level)
  vim.notify('FlowCabal: ' .. msg, level or vim.log.levels.INFO)
end

local function is_file(path)
  local st = uv.fs_stat(path)
  return st ~= nil and st.type == 'file'
end

local function is_dir(path)
  local st = uv.fs_stat(path)
  return st ~= nil and st.type == 'directory'
end

local function parent(dir)
  local p = vim.fn.fnamemodify(dir, ':h')
  return p
end

--- Project root for a file or folder: the nearest ancestor holding
--- flowcabal.toml, else the nearest holding a knowledge folder, else the
--- file's own folder.
function M.find_root(path)
  if path == nil or path == '' then
    path = vim.fn.getcwd()
  end
  path = vim.fn.fnamemodify(path, ':p')
  local start = path
  if not is_dir(start) then
    start = vim.fn.fnamemodify(path, ':h')
  end
  start = start:gsub('/+$', '')
  if start == '' then
    start = '/'
  end
  local d = start
  while true do
    if is_file(d .. '/flowcabal.toml') then
      return d
    end
    local p = parent(d)
    if p == d then
      break
    end
    d = p
  end
  d = start
  while true do
    for _, k in ipairs(M.knowledge_dirs) do
      if is_dir(d .. '/' .. k) then
        return d
      end
    end
    local p = parent(d)
    if p == d then
      break
    end
    d = p
  end
  return start
end

--- Whether path is prose the server checks (Role C): a Markdown manuscript
--- chapter or node output.
function M.is_prose(path)
  if type(path) ~= 'string' or not path:match('%.md$') then
    return false
  end
  return path:match('/manuscript/') ~= nil or path:match('/%.flowcabal/outputs/') ~= nil
end

--- UTF-16 code units in the first `col` bytes of `line` (LSP's default
--- encoding). Characters outside the BMP (4-byte UTF-8) count two.
function M.utf16_col(line, col)
  local n = 0
  local i = 1
  local limit = math.min(col, #line)
  while i <= limit do
    local b = line:byte(i)
    local len = 1
    if b >= 0xF0 then
      len = 4
    elseif b >= 0xE0 then
      len = 3
    elseif b >= 0xC0 then
      len = 2
    end
    if len == 4 then
      n = n + 2
    else
      n = n + 1
    end
    i = i + len
  end
  return n
end

--- Position of the cursor in window `win` as an LSP position (UTF-16).
function M.cursor_position(win)
  win = win or 0
  local cur = api.nvim_win_get_cursor(win)
  local buf = api.nvim_win_get_buf(win)
  local line = api.nvim_buf_get_lines(buf, cur[1] - 1, cur[1], false)[1] or ''
  return { line = cur[1] - 1, character = M.utf16_col(line, cur[2]) }
end

--- The single JSON object every flowcabal.* command takes:
--- { uri, position?, node?, text?, version? }. `fields` may set node, text,
--- version and position; the uri always comes from the buffer.
function M.command_args(bufnr, fields)
  fields = fields or {}
  local args = { uri = vim.uri_from_bufnr(bufnr) }
  if fields.position then
    args.position = fields.position
  end
  if fields.node and fields.node ~= '' then
    args.node = fields.node
  end
  if fields.text ~= nil then
    args.text = fields.text
  end
  if fields.version ~= nil then
    args.version = fields.version
  end
  return args
end

-- Neovim 0.11 made client methods take self (client:request); older
-- versions have plain functions (client.request).
local function client_request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function get_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = NAME })
  end
  local out = {}
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == NAME then
      table.insert(out, c)
    end
  end
  return out
end

--- The id of the FlowCabal client attached to bufnr (0: current), or nil.
function M.client_id(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = api.nvim_get_current_buf()
  end
  local c = get_clients(bufnr)[1]
  return c and c.id or nil
end

local function flow_client(bufnr)
  local id = M.client_id(bufnr)
  if id then
    return vim.lsp.get_client_by_id(id)
  end
  -- An output document (not a .flow buffer) talks to the client of the
  -- project it belongs to.
  local root = M.find_root(api.nvim_buf_get_name(bufnr))
  local rid = root_clients[root]
  if rid and vim.lsp.get_client_by_id(rid) then
    return vim.lsp.get_client_by_id(rid)
  end
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = NAME }) or vim.lsp.get_active_clients()
  for _, c in pairs(all) do
    if c.name == NAME and c.config.root_dir == root then
      return c
    end
  end
  for _, c in pairs(all) do
    if c.name == NAME then
      return c
    end
  end
  return nil
end

-- Results worth showing: a string, or an object with a message, or a
-- context/markdown body (opened in a scratch buffer).
local function show_result(spec, result)
  if spec.quiet then
    return
  end
  if spec.command == 'flowcabal.compare' and M.open_compare(result) then
    return
  end
  if result == nil or result == vim.NIL then
    notify(spec.command .. ' done')
    return
  end
  if type(result) == 'string' then
    if spec.show then
      M.open_scratch(result, 'markdown')
    else
      notify(result)
    end
    return
  end
  if type(result) == 'table' then
    local body = result.markdown or result.text or result.contents
    if spec.show and type(body) == 'string' then
      M.open_scratch(body, 'markdown')
      return
    end
    if type(result.message) == 'string' then
      notify(result.message)
      return
    end
  end
  notify(spec.command .. ' done')
end

--- Opens what flowcabal.compare answered: the two outputs side by side in
--- a new tab, in diff mode (each headed by its model, settings, tokens and
--- context; the newer by what changed since), and the summary as a
--- message. Returns false when result is no comparison.
function M.open_compare(result)
  if type(result) ~= 'table' or type(result.left) ~= 'string' or type(result.right) ~= 'string' then
    return false
  end
  vim.cmd('tabnew ' .. vim.fn.fnameescape(vim.uri_to_fname(result.left)))
  vim.cmd('diffthis')
  vim.cmd('rightbelow vsplit ' .. vim.fn.fnameescape(vim.uri_to_fname(result.right)))
  vim.cmd('diffthis')
  if type(result.summary) == 'string' then
    notify(result.summary)
  end
  return true
end

function M.open_scratch(text, ft)
  vim.cmd('new')
  local buf = api.nvim_get_current_buf()
  api.nvim_buf_set_option(buf, 'buftype', 'nofile')
  api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
  api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  api.nvim_buf_set_option(buf, 'filetype', ft or 'markdown')
  api.nvim_buf_set_option(buf, 'modifiable', false)
  return buf
end

local function refresh_codelens(bufnr)
  if not api.nvim_buf_is_valid(bufnr) or bufnr ~= api.nvim_get_current_buf() then
    return
  end
  if not M.client_id(bufnr) then
    return
  end
  -- 0.7's refresh() takes no arguments and uses the current buffer; newer
  -- versions accept { bufnr } and ignore nothing we pass.
  pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
end

--- Runs server command `command` with the argument object `args` through
--- the client serving bufnr; errors are shown, never swallowed. on_done
--- (optional) gets (err, result).
function M.execute(bufnr, command, args, on_done, spec)
  spec = spec or { command = command }
  local client = flow_client(bufnr)
  if not client then
    local msg = 'no FlowCabal server for this buffer (is setup() called and `' .. table.concat(config.cmd, ' ') .. '` installed?)'
    M.last = { command = command, args = args, err = { message = msg } }
    notify(msg, vim.log.levels.ERROR)
    if on_done then
      on_done({ message = msg }, nil)
    end
    return
  end
  client_request(client, 'workspace/executeCommand', { command = command, arguments = { args } }, function(err, result)
    M.last = { command = command, args = args, err = err, result = result }
    if err then
      notify(command .. ' failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      show_result(spec, result)
    end
    refresh_codelens(bufnr)
    if on_done then
      on_done(err, result)
    end
  end, bufnr)
end

local function run_user_command(spec, cmdargs)
  local bufnr = api.nvim_get_current_buf()
  local fields = { position = M.cursor_position(0) }
  local argstr = vim.trim(cmdargs.args or '')
  if spec.node_arg and argstr ~= '' then
    fields.node = argstr
  end
  if spec.output_version then
    -- An output version travels as text ("v3": "version" is the
    -- document's); none lets the server take the one before the current.
    if argstr ~= '' then
      local v = tonumber((argstr:gsub('^v', '')))
      if not v then
        notify(spec.user .. ' takes an output version (a number), not ' .. argstr, vim.log.levels.ERROR)
        return
      end
      fields.text = 'v' .. v
    end
  elseif spec.version then
    local v = tonumber(argstr)
    if not v then
      local input = vim.fn.input('Version to restore: ')
      v = tonumber(input)
      if not v then
        notify('FlowRestore needs a version number', vim.log.levels.ERROR)
        return
      end
    end
    fields.version = v
  end
  if spec.text == 'buffer' then
    fields.text = table.concat(api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  end
  local function go()
    M.execute(bufnr, spec.command, M.command_args(bufnr, fields), nil, spec)
  end
  if spec.text == 'required' or spec.text == 'optional' then
    if argstr ~= '' or cmdargs.bang then
      if argstr ~= '' then
        fields.text = argstr
      end
      go()
      return
    end
    vim.ui.input({ prompt = spec.prompt }, function(input)
      if input == nil then
        return -- cancelled
      end
      if input == '' and spec.text == 'required' then
        notify(spec.user .. ' needs text', vim.log.levels.ERROR)
        return
      end
      if input ~= '' then
        fields.text = input
      end
      go()
    end)
    return
  end
  go()
end

-- The CLI is the server command without its trailing "serve".
local function cli_cmd()
  local out = {}
  for _, part in ipairs(config.cmd) do
    if part == 'serve' then
      break
    end
    table.insert(out, part)
  end
  return out
end

local function open_external(path)
  if config.browser then
    vim.fn.jobstart({ config.browser, path }, { detach = true })
  elseif vim.ui.open then
    vim.ui.open(path)
  elseif vim.fn.executable('xdg-open') == 1 then
    vim.fn.jobstart({ 'xdg-open', path }, { detach = true })
  elseif vim.fn.executable('open') == 1 then
    vim.fn.jobstart({ 'open', path }, { detach = true })
  else
    notify('graph written to ' .. path)
  end
end

--- :FlowGraph — draws the workflow DAG as SVG with `flowcabal graph` and
--- opens it in the browser. on_done (optional) gets (err, svg_path).
function M.graph(bufnr, on_done)
  bufnr = bufnr or api.nvim_get_current_buf()
  local file = api.nvim_buf_get_name(bufnr)
  local out = vim.fn.tempname() .. '.svg'
  local cmd = cli_cmd()
  vim.list_extend(cmd, { 'graph', file, '--format', 'svg' })
  local chunks, errs = {}, {}
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    cwd = M.find_root(file),
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      chunks = data
    end,
    on_stderr = function(_, data)
      errs = data
    end,
    on_exit = function(_, code)
      if code ~= 0 then
        local msg = 'graph failed: ' .. vim.trim(table.concat(errs, '\n'))
        notify(msg, vim.log.levels.ERROR)
        if on_done then
          on_done({ message = msg }, nil)
        end
        return
      end
      vim.fn.writefile(chunks, out, 'b')
      open_external(out)
      if on_done then
        on_done(nil, out)
      end
    end,
  })
  if not ok or job <= 0 then
    local msg = 'cannot start ' .. table.concat(cmd, ' ')
    notify(msg, vim.log.levels.ERROR)
    if on_done then
      on_done({ message = msg }, nil)
    end
  end
end

--- The buffer a project command talks through: the current one when a
--- FlowCabal client serves it, else any buffer of the project that has one.
local function project_buffer(root)
  local cur = api.nvim_get_current_buf()
  if flow_client(cur) then
    return cur
  end
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and M.client_id(b) and M.find_root(api.nvim_buf_get_name(b)) == root then
      return b
    end
  end
  return cur
end

local function abspath(p)
  local full = vim.fn.fnamemodify(vim.fn.expand(p), ':p'):gsub('/$', '')
  return full
end

--- :FlowImport {file|folder}... — previews the split of the manuscript
--- (the table of chapters found) and imports it once confirmed. on_done
--- (optional) gets (err, result); result is nil when cancelled.
function M.import(files, on_done)
  on_done = on_done or function() end
  if #files == 0 then
    notify('FlowImport needs the manuscript: a file, or a folder of chapter files', vim.log.levels.ERROR)
    return on_done({ message = 'no file' }, nil)
  end
  local root = M.find_root(api.nvim_buf_get_name(0))
  local bufnr = project_buffer(root)
  local paths = {}
  for _, f in ipairs(files) do
    table.insert(paths, abspath(f))
  end
  local args = { uri = vim.uri_from_fname(root), files = paths, dryRun = true }
  M.execute(bufnr, 'flowcabal.importManuscript', args, function(err, preview)
    if err then
      return on_done(err, nil)
    end
    local win = api.nvim_get_current_win()
    local pbuf = M.open_scratch(preview.table or '', 'text')
    M.last_preview = pbuf
    vim.schedule(function()
      vim.ui.select({ 'Import', 'Cancel' }, { prompt = string.format('Import %d chapters into %s? ', #(preview.chapters or {}), root) }, function(choice)
        if api.nvim_buf_is_valid(pbuf) then
          api.nvim_buf_delete(pbuf, { force = true })
        end
        if api.nvim_win_is_valid(win) then
          api.nvim_set_current_win(win)
        end
        if choice ~= 'Import' then
          notify('import cancelled: nothing written')
          return on_done(nil, nil)
        end
        args.dryRun = nil
        args.plan = preview.plan
        M.execute(bufnr, 'flowcabal.importManuscript', args, on_done, { command = 'flowcabal.importManuscript' })
      end)
    end)
  end, { command = 'flowcabal.importManuscript', quiet = true })
end

local function describe(s)
  local aliases = ''
  if s.aliases and #s.aliases > 0 then
    aliases = ' · ' .. table.concat(s.aliases, ', ')
  end
  return string.format('%s (%s, %d mentions, chapters %d–%d)%s', s.name, s.kind, s.mentions, s.first_chapter, s.last_chapter, aliases)
end

--- :FlowEntities [name...] — the characters and places the manuscript is
--- about: pick the ones to accept, then write their drafts (entity files
--- with draft: true). With names, accepts those at once. on_done (optional)
--- gets (err, result); result is nil when cancelled.
function M.entities(names, on_done)
  on_done = on_done or function() end
  local root = M.find_root(api.nvim_buf_get_name(0))
  local bufnr = project_buffer(root)
  local uri = vim.uri_from_fname(root)
  local spec = { command = 'flowcabal.acceptEntities' }
  if names and #names > 0 then
    return M.execute(bufnr, 'flowcabal.acceptEntities', { uri = uri, names = names }, on_done, spec)
  end
  M.execute(bufnr, 'flowcabal.suggestEntities', { uri = uri }, function(err, sugg)
    if err then
      return on_done(err, nil)
    end
    local open = {}
    for _, s in ipairs(sugg or {}) do
      if not s.file or s.file == '' then
        table.insert(open, s)
      end
    end
    if #open == 0 then
      notify('every suggested entity has its file already')
      return on_done(nil, { written = {} })
    end
    local chosen = {}
    local function ask()
      local items = {}
      if #chosen > 0 then
        table.insert(items, { write = true })
      end
      for _, s in ipairs(open) do
        if not vim.tbl_contains(chosen, s.name) then
          table.insert(items, s)
        end
      end
      vim.ui.select(items, {
        prompt = #chosen == 0 and 'Accept which entity? ' or ('Chosen: ' .. table.concat(chosen, ', ') .. ' — another, or write: '),
        format_item = function(it)
          if it.write then
            return string.format('✔ Write the drafts of %d chosen: %s', #chosen, table.concat(chosen, ', '))
          end
          return describe(it)
        end,
      }, function(it)
        if it == nil then
          notify('no entity accepted: nothing written')
          return on_done(nil, nil)
        end
        if it.write then
          return M.execute(bufnr, 'flowcabal.acceptEntities', { uri = uri, names = chosen }, on_done, spec)
        end
        table.insert(chosen, it.name)
        vim.schedule(ask)
      end)
    end
    ask()
  end, { command = 'flowcabal.suggestEntities', quiet = true })
end

local function describe_fact(p)
  local what = p.kind == 'progression' and string.format('from chapter %d, %s: %s', p.chapter, p.key, p.value)
    or string.format('%s: %s', p.key, p.value)
  local quote = (p.quote or ''):gsub('%s+', ' ')
  if vim.fn.strchars(quote) > 60 then
    quote = vim.fn.strcharpart(quote, 0, 59) .. '…'
  end
  return string.format('%s — chapter %d, line %d: “%s”', what, p.chapter, p.line, quote)
end

--- :FlowFacts — in an entity file, asks the agent model what the
--- manuscript states about the entity: pick the proposals to add (each
--- shown with its quotation), then "Add"; they go into the buffer's front
--- matter as an edit, for the author to save. Proposals whose quotation is
--- not in the chapter, and conflicts with what the file says, are never
--- offered. on_done (optional) gets (err, result); result is nil when
--- cancelled.
function M.facts(on_done)
  on_done = on_done or function() end
  local ebuf = api.nvim_get_current_buf()
  local fname = api.nvim_buf_get_name(ebuf)
  local root = M.find_root(fname)
  if not root or not fname:find('/entities/', 1, true) then
    notify('FlowFacts works in an entity file (under entities/)', vim.log.levels.ERROR)
    return on_done({ message = 'not an entity file' }, nil)
  end
  local bufnr = project_buffer(root)
  local uri = vim.uri_from_fname(fname)
  local function buffer_text()
    return table.concat(api.nvim_buf_get_lines(ebuf, 0, -1, false), '\n') .. (vim.bo[ebuf].eol and '\n' or '')
  end
  M.execute(bufnr, 'flowcabal.entityFacts', { uri = uri, text = buffer_text() }, function(err, res)
    if err then
      return on_done(err, nil)
    end
    local open = {}
    for _, p in ipairs(res.proposals or {}) do
      if p.status == 'new' then
        table.insert(open, p)
      end
    end
    if #open == 0 then
      notify(res.message .. ': nothing new to add')
      return on_done(nil, { added = 0 })
    end
    local chosen, labels = {}, {}
    local function ask()
      local items = {}
      if #chosen > 0 then
        table.insert(items, { add = true })
      end
      for _, p in ipairs(open) do
        if not vim.tbl_contains(chosen, p.id) then
          table.insert(items, p)
        end
      end
      vim.ui.select(items, {
        prompt = #chosen == 0 and (res.message .. '. Add which? ') or ('Chosen: ' .. table.concat(labels, '; ') .. ' — another, or add: '),
        format_item = function(it)
          if it.add then
            return string.format('✔ Add the %d chosen to %s', #chosen, res.path)
          end
          return describe_fact(it)
        end,
      }, function(it)
        if it == nil then
          notify('no fact added')
          return on_done(nil, nil)
        end
        if it.add then
          return M.execute(bufnr, 'flowcabal.acceptFacts', { uri = uri, names = chosen, text = buffer_text() }, on_done, { command = 'flowcabal.acceptFacts' })
        end
        table.insert(chosen, it.id)
        table.insert(labels, it.key .. ': ' .. it.value)
        vim.schedule(ask)
      end)
    end
    ask()
  end, { command = 'flowcabal.entityFacts', quiet = true })
end

--- :FlowMove {old} {new} — moves a knowledge file, a workflow or a folder
--- of them and rewrites every {{@…}} and use that names it, as `flowcabal
--- mv` does: the server sends the rewrites and the move as one edit, and
--- the workflows it rewrote are saved unless they had unsaved changes of
--- the author's (then they are left modified, for the author to save).
--- Neovim sends no workspace/willRenameFiles; this is its rename.
function M.move(old, new, on_done)
  on_done = on_done or function() end
  if not old or not new then
    notify('FlowMove takes two paths: FlowMove OLD NEW', vim.log.levels.ERROR)
    return on_done({ message = 'two paths needed' }, nil)
  end
  old, new = abspath(old), abspath(new)
  if vim.fn.isdirectory(old) == 1 and vim.fn.has('nvim-0.10') == 0 then
    -- Neovim before 0.10 renames a file of a workspace edit by writing its
    -- buffer first, which a folder has not.
    local msg = 'this Neovim cannot move a folder through the server; run `flowcabal mv OLD NEW` in a terminal'
    notify(msg, vim.log.levels.ERROR)
    return on_done({ message = msg }, nil)
  end
  local root = M.find_root(old)
  local bufnr = project_buffer(root)
  local dirty = {}
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and vim.bo[b].modified then
      dirty[api.nvim_buf_get_name(b)] = true
    end
  end
  M.execute(bufnr, 'flowcabal.move', { uri = vim.uri_from_fname(old), newUri = vim.uri_from_fname(new) }, function(err, res)
    if not err and res and res.applied then
      for _, u in ipairs(res.rewritten or {}) do
        local fname = vim.uri_to_fname(u)
        local b = vim.fn.bufnr(fname)
        if b ~= -1 and api.nvim_buf_is_loaded(b) and vim.bo[b].modified and not dirty[fname] then
          api.nvim_buf_call(b, function()
            vim.cmd('silent update')
          end)
        end
      end
    end
    on_done(err, res)
  end, { command = 'flowcabal.move' })
end

local function define_user_commands()
  for _, spec in ipairs(M.commands) do
    local nargs = '?'
    if spec.text == 'required' or spec.text == 'optional' then
      nargs = '*'
    elseif spec.text == 'buffer' or not (spec.node_arg or spec.version or spec.output_version) then
      nargs = 0
    end
    api.nvim_create_user_command(spec.user, function(cmdargs)
      run_user_command(spec, cmdargs)
    end, { nargs = nargs, bang = spec.text == 'optional' or spec.text == 'required', desc = spec.desc })
  end
  api.nvim_create_user_command('FlowGraph', function()
    M.graph()
  end, { nargs = 0, desc = 'Draw the workflow DAG (SVG) and open it in the browser' })
  api.nvim_create_user_command('FlowImport', function(c)
    M.import(c.fargs)
  end, { nargs = '+', complete = 'file', desc = 'Import the manuscript (a file, or a folder of chapter files) after a preview' })
  api.nvim_create_user_command('FlowEntities', function(c)
    M.entities(c.fargs)
  end, { nargs = '*', desc = 'Accept suggested characters and places as draft entity files' })
  api.nvim_create_user_command('FlowFacts', function()
    M.facts()
  end, { nargs = 0, desc = 'Propose facts for this entity from the manuscript (agent model); add the chosen' })
  api.nvim_create_user_command('FlowMove', function(c)
    M.move(c.fargs[1], c.fargs[2])
  end, { nargs = '+', complete = 'file', desc = 'Move a knowledge file or workflow; rewrite what names it' })
end

-- Handlers for requests that Neovim 0.7 lacks or that we want shown.
local function show_document(_, result)
  if not result or not result.uri then
    return { success = false }
  end
  if result.external then
    open_external(result.uri)
    return { success = true }
  end
  local fname = vim.uri_to_fname(result.uri)
  local target = vim.fn.bufnr(fname)
  local win = target ~= -1 and vim.fn.bufwinid(target) or -1
  if win ~= -1 then
    if result.takeFocus ~= false then
      api.nvim_set_current_win(win)
    end
  elseif result.takeFocus == false then
    local b = vim.fn.bufadd(fname)
    vim.fn.bufload(b)
    return { success = true }
  else
    local how = ({ vsplit = 'vsplit', split = 'split', tab = 'tabedit', edit = 'edit' })[config.open] or 'vsplit'
    vim.cmd(how .. ' ' .. vim.fn.fnameescape(fname))
    win = api.nvim_get_current_win()
  end
  if result.selection and win ~= -1 then
    local s = result.selection.start
    local buf = api.nvim_win_get_buf(win)
    local line = api.nvim_buf_get_lines(buf, s.line, s.line + 1, false)[1] or ''
    local col = vim.str_byteindex(line, math.min(s.character, select(2, vim.str_utfindex(line))), true)
    pcall(api.nvim_win_set_cursor, win, { s.line + 1, col })
  end
  return { success = true }
end

-- Neovim up to 0.9 creates a file of a workspace edit only in a folder
-- that exists; the spec (and VS Code) make the folders. An entity drafted
-- as the first of its kind (entities/locations/) needs that.
local function apply_edit(err, result, ctx, cfg)
  local changes = result and result.edit and result.edit.documentChanges or {}
  for _, ch in ipairs(changes) do
    local target = (ch.kind == 'create' and ch.uri) or (ch.kind == 'rename' and ch.newUri) or nil
    if target then
      vim.fn.mkdir(vim.fn.fnamemodify(vim.uri_to_fname(target), ':h'), 'p')
    end
  end
  return vim.lsp.handlers['workspace/applyEdit'](err, result, ctx, cfg)
end

local function codelens_refresh_request()
  local bufnr = api.nvim_get_current_buf()
  vim.schedule(function()
    refresh_codelens(bufnr)
  end)
  return vim.NIL
end

-- Code lenses carry flowcabal.* commands; routing them through the client
-- (instead of 0.7's default, which ignores the answer) shows their errors.
local function lens_commands()
  local cmds = {}
  local all = vim.deepcopy(M.commands)
  table.insert(all, { command = 'flowcabal.graph' })
  table.insert(all, { command = 'flowcabal.addEntity' })
  for _, spec in ipairs(all) do
    cmds[spec.command] = function(command, ctx)
      local arg = command.arguments and command.arguments[1]
      if type(arg) ~= 'table' then
        arg = M.command_args(ctx.bufnr, { position = M.cursor_position(0) })
      end
      M.execute(ctx.bufnr, command.command, arg, nil, spec)
    end
  end
  return cmds
end

local function make_capabilities()
  local caps = config.capabilities or vim.lsp.protocol.make_client_capabilities()
  caps = vim.deepcopy(caps)
  caps.workspace = caps.workspace or {}
  caps.workspace.codeLens = { refreshSupport = true }
  caps.workspace.configuration = true
  -- Neovim applies documentChanges (text edits, create, rename) since 0.5
  -- but 0.7 does not say so; the move and "Add as a character" need them.
  caps.workspace.workspaceEdit = caps.workspace.workspaceEdit or {}
  caps.workspace.workspaceEdit.documentChanges = true
  caps.textDocument = caps.textDocument or {}
  caps.textDocument.codeLens = caps.textDocument.codeLens or { dynamicRegistration = false }
  caps.window = caps.window or {}
  caps.window.workDoneProgress = true
  caps.window.showDocument = { support = true }
  caps.general = caps.general or {}
  caps.general.positionEncodings = { 'utf-16' }
  return caps
end

local function server_env()
  local env = vim.deepcopy(config.cmd_env or {})
  local key = config.api_key
  if type(key) == 'function' then
    key = key()
  end
  if type(key) == 'string' and key ~= '' then
    env.FLOWCABAL_API_KEY = key
  end
  -- The base URLs in the author's own setup{} are trusted with the key
  -- (the server refuses other hosts a project file might name).
  local hosts = {}
  local models = (config.settings or {}).models or {}
  for _, name in ipairs({ 'writer', 'agent', 'embedding' }) do
    local url = type(models[name]) == 'table' and models[name].baseUrl or nil
    local host = type(url) == 'string' and url:match('^%a[%w+.-]*://([^/?#]+)') or nil
    if host and host ~= '' and not vim.tbl_contains(hosts, host:lower()) then
      table.insert(hosts, host:lower())
    end
  end
  if #hosts > 0 then
    local inherited = env.FLOWCABAL_TRUSTED_HOSTS or vim.env.FLOWCABAL_TRUSTED_HOSTS
    if inherited and inherited ~= '' then
      table.insert(hosts, 1, inherited)
    end
    env.FLOWCABAL_TRUSTED_HOSTS = table.concat(hosts, ',')
  end
  if next(env) == nil then
    return nil
  end
  return env
end

--- The client configuration for a project root (exposed for tests).
function M.client_config(root)
  return {
    name = NAME,
    cmd = config.cmd,
    cmd_env = server_env(),
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    settings = { flowcabal = config.settings or {} },
    init_options = { outline = config.outline or 'full', hover = config.hover, inlayHints = config.inlay_hints ~= false },
    offset_encoding = 'utf-16',
    capabilities = make_capabilities(),
    handlers = {
      ['window/showDocument'] = show_document,
      ['workspace/codeLens/refresh'] = codelens_refresh_request,
      ['workspace/applyEdit'] = apply_edit,
    },
    commands = lens_commands(),
    on_exit = function(_, _, client_id)
      -- The root gets a new server at the next buffer that needs one.
      if root_clients[root] == client_id then
        root_clients[root] = nil
      end
    end,
    on_attach = function(client, bufnr)
      vim.schedule(function()
        refresh_codelens(bufnr)
      end)
      -- Neovim 0.10+ shows inlay hints (0.7 has none to show).
      if config.inlay_hints ~= false and vim.lsp.inlay_hint and client.server_capabilities.inlayHintProvider then
        if not pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr }) then
          pcall(vim.lsp.inlay_hint.enable, bufnr, true)
        end
      end
      if config.on_attach then
        config.on_attach(client, bufnr)
      end
    end,
    flags = { debounce_text_changes = 50 },
  }
end

local function schedule_refresh(bufnr)
  local t = timers[bufnr]
  if not t then
    t = uv.new_timer()
    timers[bufnr] = t
  end
  t:stop()
  t:start(config.codelens_debounce, 0, vim.schedule_wrap(function()
    refresh_codelens(bufnr)
  end))
end

local use_lspconfig = false

--- Attaches (starting it if needed) the FlowCabal client to bufnr and
--- returns its id (nil when it could not start; nil too with lspconfig,
--- which attaches on its own — use client_id() then).
---
--- One server runs per root. The plugin keeps its own record of the
--- client of each root, from start until the process exits: Neovim 0.7
--- lists a client only once its initialize has answered (until then
--- client_is_stopped() is true), and FileType fires more than once for a
--- buffer being opened, so asking Neovim would start a second server.
function M.attach(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = api.nvim_get_current_buf()
  end
  if use_lspconfig then
    return M.client_id(bufnr)
  end
  local root = M.find_root(api.nvim_buf_get_name(bufnr))
  local id = root_clients[root]
  if id == nil then
    local cfg = M.client_config(root)
    if vim.lsp.start then
      id = vim.lsp.start(cfg, { bufnr = bufnr })
    else
      id = vim.lsp.start_client(cfg)
    end
    if not id then
      notify('could not start ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    root_clients[root] = id
  end
  if not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local function on_flow_buffer(bufnr)
  M.attach(bufnr)
  api.nvim_clear_autocmds({ group = augroup, buffer = bufnr })
  api.nvim_create_autocmd({ 'BufEnter', 'BufWritePost', 'InsertLeave', 'TextChanged' }, {
    group = augroup,
    buffer = bufnr,
    callback = function()
      schedule_refresh(bufnr)
    end,
  })
  api.nvim_create_autocmd('BufWipeout', {
    group = augroup,
    buffer = bufnr,
    callback = function()
      local t = timers[bufnr]
      if t then
        t:stop()
        t:close()
        timers[bufnr] = nil
      end
    end,
  })
end

-- .flow buffers get the client and code lens refreshes; prose buffers
-- (manuscript chapters, node outputs) get the client for Role C's
-- diagnostics, quick-fixes and the decision commands.
local function on_buffer(bufnr)
  if vim.bo[bufnr].filetype == 'flow' then
    on_flow_buffer(bufnr)
  elseif M.is_prose(api.nvim_buf_get_name(bufnr)) and not use_lspconfig then
    M.attach(bufnr)
  end
end

local function try_lspconfig()
  if config.lspconfig == false then
    return false
  end
  local ok, lspconfig = pcall(require, 'lspconfig')
  if not ok then
    return false
  end
  local ok2, configs = pcall(require, 'lspconfig.configs')
  if not ok2 then
    return false
  end
  if not configs[NAME] then
    configs[NAME] = {
      default_config = {
        cmd = config.cmd,
        filetypes = { 'flow', 'markdown' },
        root_dir = function(fname)
          if fname:match('%.flow$') or M.is_prose(fname) then
            return M.find_root(fname)
          end
          return nil
        end,
      },
      docs = { description = 'FlowCabal language server (flowcabal serve)' },
    }
  end
  local cfg = M.client_config(vim.fn.getcwd())
  cfg.filetypes = { 'flow', 'markdown' }
  cfg.root_dir = function(fname)
    if fname:match('%.flow$') or M.is_prose(fname) then
      return M.find_root(fname)
    end
    return nil
  end
  cfg.workspace_folders = nil
  cfg.name = nil
  local ok3, err = pcall(lspconfig[NAME].setup, cfg)
  if not ok3 then
    notify('nvim-lspconfig setup failed, using vim.lsp: ' .. tostring(err), vim.log.levels.WARN)
    return false
  end
  return true
end

--- Configures the plugin. Safe to call again (the latest options win for
--- clients started afterwards).
function M.setup(opts)
  config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if opts and opts.cmd then
    config.cmd = opts.cmd -- lists are replaced, not merged
  end
  augroup = api.nvim_create_augroup('flowcabal', { clear = true })
  define_user_commands()
  -- A "Compare with vN" lens opens a diff here: the client runs it, not
  -- the server alone.
  vim.lsp.commands['flowcabal.compare'] = function(command, ctx)
    local args = command.arguments and command.arguments[1] or {}
    M.execute(ctx.bufnr, command.command, args, nil, { command = command.command })
  end

  -- Filetype detection even under `-u NONE`, where ftdetect/ is not read.
  api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = augroup,
    pattern = '*.flow',
    callback = function(ev)
      if vim.bo[ev.buf].filetype ~= 'flow' then
        vim.bo[ev.buf].filetype = 'flow'
      end
    end,
  })

  use_lspconfig = try_lspconfig()
  api.nvim_create_autocmd('FileType', {
    group = augroup,
    pattern = { 'flow', 'markdown' },
    callback = function(ev)
      on_buffer(ev.buf)
    end,
  })
  -- Buffers already open when setup() runs.
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) then
      local name = api.nvim_buf_get_name(b)
      if vim.bo[b].filetype == 'flow' or vim.bo[b].filetype == 'markdown' then
        on_buffer(b)
      elseif name:match('%.flow$') then
        vim.bo[b].filetype = 'flow' -- fires FileType
      end
    end
  end
end

--- A short run state for the statusline, from $/progress messages.
function M.status()
  if vim.lsp.status then
    return vim.lsp.status()
  end
  local parts = {}
  for _, m in ipairs(vim.lsp.util.get_progress_messages()) do
    if m.name == NAME and not m.done then
      local s = m.title or ''
      if m.message then
        s = s .. ' ' .. m.message
      end
      if m.percentage then
        s = s .. string.format(' (%d%%%%)', m.percentage)
      end
      table.insert(parts, s)
    end
  end
  return table.concat(parts, ' · ')
end

return M
