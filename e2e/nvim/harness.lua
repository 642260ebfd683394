-- Shared steps of the headless Neovim scenarios: a report file with one
-- "ok NAME" or "FAIL NAME: why" line per step, waiting on predicates
-- (never sleeping), synchronous LSP requests and buffer helpers.
local H = { failed = false }
local report = assert(os.getenv('FLOWCABAL_REPORT'))
local lines = {}

function H.log(s)
  table.insert(lines, s)
  local f = io.open(report, 'w')
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
end

function H.step(name, fn)
  local ok, err = pcall(fn)
  if ok then
    H.log('ok ' .. name)
  else
    H.failed = true
    H.log('FAIL ' .. name .. ': ' .. tostring(err))
  end
end

function H.wait(ms, what, pred)
  if not vim.wait(ms, pred, 20) then
    error('timed out waiting for ' .. what)
  end
end

function H.request(buf, method, params)
  local res, err = vim.lsp.buf_request_sync(buf, method, params, 10000)
  if not res then
    error(method .. ': ' .. tostring(err))
  end
  for _, r in pairs(res) do
    if r.error then
      error(method .. ': ' .. vim.inspect(r.error))
    end
    return r.result
  end
  error(method .. ': no answer')
end

-- Position (0-based line, UTF-16 column) of the first occurrence of
-- `needle` in the buffer, plus `delta` characters.
function H.find(buf, needle, delta)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local s = line:find(needle, 1, true)
    if s then
      local _, col16 = vim.str_utfindex(line, s - 1)
      return { line = i - 1, character = col16 + (delta or 0) }
    end
  end
  error('not in buffer: ' .. needle)
end

function H.text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end

-- finish ends Neovim with the scenario's verdict as its exit code.
function H.finish()
  vim.cmd(H.failed and 'cquit 1' or 'qall!')
end

return H
