-- Neovim (0.7+) as an independent LSP client: start agent-lens-server over stdio for one file, wait for
-- its diagnostics, write them (line:character:code, sorted) to $AGENT_LENS_OUT, quit.
local server = os.getenv("AGENT_LENS_SERVER")
local file = os.getenv("AGENT_LENS_FILE")
local root = os.getenv("AGENT_LENS_ROOT")
local out = os.getenv("AGENT_LENS_OUT")
local timeout_ms = tonumber(os.getenv("AGENT_LENS_TIMEOUT_MS") or "30000")

local function finish(lines)
  local fh = assert(io.open(out, "w"))
  fh:write(table.concat(lines, "\n"))
  fh:write("\n")
  fh:close()
  vim.schedule(function() vim.cmd("qall!") end)
end

local done = false
local target_uri = vim.uri_from_fname(file)

vim.cmd("edit " .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = "typescript"

local client_id = vim.lsp.start_client({
  name = "agent-lens",
  cmd = { "node", server, "--stdio" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "fixture" } },
  get_language_id = function() return "typescript" end,
  settings = { agentLens = { diagnostics = { debounceMs = 0 } } },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      vim.lsp.handlers["textDocument/publishDiagnostics"](err, result, ctx, config)
      if done or err or result.uri ~= target_uri then return end
      done = true
      local lines = { "OK" }
      local entries = {}
      for _, d in ipairs(result.diagnostics) do
        table.insert(entries, string.format("%d:%d:%s:%s", d.range.start.line, d.range.start.character, tostring(d.code), tostring(d.source)))
      end
      table.sort(entries)
      for _, e in ipairs(entries) do table.insert(lines, e) end
      -- Read them back through Neovim's own diagnostic API too: proves the client understood them.
      table.insert(lines, "vim.diagnostic=" .. tostring(#vim.diagnostic.get(bufnr)))
      finish(lines)
    end,
  },
  on_exit = function(code)
    if not done then
      done = true
      finish({ "SERVER EXITED " .. tostring(code) })
    end
  end,
})

if not client_id then
  finish({ "START FAILED" })
else
  vim.lsp.buf_attach_client(bufnr, client_id)
end

vim.defer_fn(function()
  if not done then
    done = true
    finish({ "TIMEOUT" })
  end
end, timeout_ms)
