-- Neovim's built-in LSP client (0.7) against wrapguard-clangd: open the file
-- named by $WRAPGUARD_NVIM_FILE, wait for the wrapguard diagnostic, apply its
-- quick fix, write the file, and exit 0 (cquit 1 on any failure).
local check = "wrapguard-unchecked-policy-call"
local file = os.getenv("WRAPGUARD_NVIM_FILE")
local root = vim.fn.fnamemodify(file, ":h")
local timeout_ms = 120000

local function fail(msg)
  io.stderr:write("nvim test: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = "cpp"

  -- The documented setup from docs/editors.md (Neovim, vim.lsp.start_client).
  local client_id = vim.lsp.start_client({
    name = "wrapguard-clangd",
    cmd = { os.getenv("WRAPGUARD_CLANGD"), "--background-index=false" },
    root_dir = root,
  })
  if not client_id then
    return fail("the server did not start")
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  local found
  vim.wait(timeout_ms, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == check then
        found = d
        return true
      end
    end
    return false
  end, 100)
  if not found then
    return fail("no " .. check .. " diagnostic within the deadline")
  end
  print(string.format("diagnostic %d:%d %s", found.lnum + 1, found.col + 1, found.message))

  -- Ask for code actions on the diagnostic's range, as :lua vim.lsp.buf.code_action() does.
  -- Neovim 0.7 keeps no copy of the LSP diagnostic; clangd matches the
  -- context's diagnostic by range and message, so rebuild those.
  local lsp_diag = {
    range = {
      start = { line = found.lnum, character = found.col },
      ["end"] = { line = found.end_lnum, character = found.end_col },
    },
    message = found.message,
    code = found.code,
    source = found.source,
    severity = found.severity,
  }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, only = { "quickfix" } },
  }
  local resp = client.request_sync("textDocument/codeAction", params, timeout_ms, bufnr)
  if not resp or resp.err or not resp.result then
    return fail("codeAction failed: " .. vim.inspect(resp))
  end
  local action
  for _, a in ipairs(resp.result) do
    if a.kind == "quickfix" and a.edit then
      action = a
      break
    end
  end
  if not action then
    return fail("no quick fix among " .. vim.inspect(resp.result))
  end
  print("quickfix: " .. action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  vim.cmd("write")

  client.stop()
  vim.wait(10000, function() return client.is_stopped() end, 100)
end)
if not ok then
  fail(tostring(err))
else
  vim.cmd("qall!")
end
