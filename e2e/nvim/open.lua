-- Opening .flow files the ways authors do must start one server per
-- project root and attach it once to each buffer (Neovim 0.7 lists a
-- client only after its initialize answers, so a second attach during
-- start-up used to start a second server). Run by e2e/nvim_open_test.go
-- after an init.lua that sets the plugin up as the README says, with the
-- files named on the command line or none; FLOWCABAL_OPEN lists the
-- Ex commands to run first (":e", ":split", …), separated by '|'.
-- FLOWCABAL_ROOTS is how many project roots the files belong to.

local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local step, wait = H.step, H.wait
local flowcabal = require('flowcabal')
local bin = assert(os.getenv('FLOWCABAL_BIN'))
local roots = tonumber(assert(os.getenv('FLOWCABAL_ROOTS')))

for cmd in (os.getenv('FLOWCABAL_OPEN') or ''):gmatch('[^|]+') do
  vim.cmd(cmd)
end

-- Every .flow buffer, loaded or not (a file named second on the command
-- line is loaded when first shown): show each one so that it loads, as an
-- author going through them would.
local function flow_buffers()
  local out = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b):match('%.flow$') then
      table.insert(out, b)
    end
  end
  return out
end
for _, b in ipairs(flow_buffers()) do
  if not vim.api.nvim_buf_is_loaded(b) then
    vim.cmd('buffer ' .. b)
  end
end

-- The server processes Neovim started: its children running the binary.
local function servers()
  local me, n = vim.fn.getpid(), 0
  for _, stat in ipairs(vim.fn.glob('/proc/[0-9]*/stat', false, true)) do
    local f = io.open(stat)
    local s = f and f:read('*a') or ''
    if f then
      f:close()
    end
    local ppid = tonumber(s:match('^%d+ %b() %S+ (%d+)'))
    if ppid == me then
      local pid = stat:match('/proc/(%d+)/')
      local c = io.open('/proc/' .. pid .. '/cmdline')
      local cmdline = c and c:read('*a') or ''
      if c then
        c:close()
      end
      if cmdline:find(bin, 1, true) then
        n = n + 1
      end
    end
  end
  return n
end

local function count(t)
  local n = 0
  for _ in pairs(t) do
    n = n + 1
  end
  return n
end

step('attach', function()
  local bufs = flow_buffers()
  assert(#bufs >= 2, 'only ' .. #bufs .. ' .flow buffers')
  wait(10000, 'every .flow buffer to have its client', function()
    for _, b in ipairs(bufs) do
      if count(vim.lsp.buf_get_clients(b)) == 0 then
        return false
      end
    end
    return true
  end)
  -- Wait for every client started to be initialized, so that a second
  -- one for a root would be in the list.
  wait(10000, 'the clients to initialize', function()
    for _, c in pairs(vim.lsp.get_active_clients()) do
      if not c.initialized then
        return false
      end
    end
    return true
  end)
end)

step('one server per root', function()
  local n = servers()
  assert(n == roots, n .. ' server processes for ' .. roots .. ' root(s)')
  local active = 0
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if c.name == 'flowcabal' then
      active = active + 1
    end
  end
  assert(active == roots, active .. ' clients for ' .. roots .. ' root(s)')
end)

step('one client per buffer', function()
  for _, b in ipairs(flow_buffers()) do
    local n = count(vim.lsp.buf_get_clients(b))
    assert(n == 1, vim.api.nvim_buf_get_name(b) .. ' has ' .. n .. ' clients')
  end
end)

step('each lens once', function()
  -- Lenses are drawn for the buffer in view: look at each in turn.
  for _, b in ipairs(flow_buffers()) do
    vim.cmd('buffer ' .. b)
    wait(10000, 'the lenses of ' .. vim.api.nvim_buf_get_name(b), function()
      return #vim.lsp.codelens.get(b) > 0
    end)
    local seen = {}
    for _, l in ipairs(vim.lsp.codelens.get(b)) do
      local k = l.range.start.line .. ':' .. ((l.command and l.command.title) or '')
      assert(not seen[k], 'lens twice at ' .. k .. ' in ' .. vim.api.nvim_buf_get_name(b))
      seen[k] = true
    end
  end
end)

H.finish()
