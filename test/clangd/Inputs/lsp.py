"""A small LSP client over stdio, in Python's standard library, for the clangd tests.

It starts a server process, frames JSON-RPC messages with Content-Length headers,
answers the server's own requests with null, and lets a test wait (with a deadline)
for responses and publishDiagnostics notifications. No network is involved.
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

# Every wait is bounded; lit's own timeout is a last resort.
DEFAULT_TIMEOUT = float(os.environ.get("WRAPGUARD_LSP_TIMEOUT", "120"))


class LSPError(Exception):
    pass


def path_to_uri(path):
    return "file://" + os.path.abspath(path)


class Client:
    def __init__(self, argv, cwd=None, stderr_path=None):
        self._stderr = open(stderr_path or os.devnull, "wb")
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr)
        self._next_id = 1
        self._responses = {}
        self._notifications = queue.Queue()
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        # Latest diagnostics per URI, with the document version they were published for.
        self.diagnostics = {}

    # --- framing ---------------------------------------------------------------------------
    def _send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read_message(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        if length is None:
            raise LSPError("message without Content-Length")
        return json.loads(self.proc.stdout.read(length))

    def _read_loop(self):
        while True:
            message = self._read_message()
            if message is None:
                with self._cond:
                    self._cond.notify_all()
                self._notifications.put(None)
                return
            if "id" in message and "method" in message:
                # A request from the server (workspace/configuration, progress, ...).
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message:
                with self._cond:
                    self._responses[message["id"]] = message
                    self._cond.notify_all()
            else:
                self._notifications.put(message)

    # --- requests and notifications ----------------------------------------------------------
    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=DEFAULT_TIMEOUT):
        request_id = self._next_id
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._cond:
            while request_id not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LSPError("no response to %s within %.0f s" % (method, timeout))
                if self.proc.poll() is not None:
                    raise LSPError("server exited (%s) before answering %s" % (self.proc.returncode, method))
                self._cond.wait(min(left, 0.5))
            response = self._responses.pop(request_id)
        if "error" in response:
            raise LSPError("%s failed: %s" % (method, response["error"]))
        return response.get("result")

    def wait_for_diagnostics(self, uri, version=None, timeout=DEFAULT_TIMEOUT):
        """Returns the first diagnostics for uri published for version (any version when None)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LSPError("no diagnostics for %s (version %s) within %.0f s" % (uri, version, timeout))
            try:
                message = self._notifications.get(timeout=min(left, 0.5))
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise LSPError("server exited (%s) while waiting for diagnostics" % self.proc.returncode)
                continue
            if message is None:
                raise LSPError("server closed its output while waiting for diagnostics")
            if message.get("method") != "textDocument/publishDiagnostics":
                continue
            params = message["params"]
            self.diagnostics[params["uri"]] = params
            if params["uri"] == uri and (version is None or params.get("version") == version):
                return params["diagnostics"]

    # --- the session ---------------------------------------------------------------------------
    def initialize(self, root):
        capabilities = {
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix", "refactor", "source"]}}},
                "synchronization": {"didSave": True},
            },
            "workspace": {"workspaceEdit": {"documentChanges": False}},
        }
        result = self.request("initialize", {"processId": os.getpid(), "rootUri": path_to_uri(root),
                                             "capabilities": capabilities})
        self.notify("initialized", {})
        return result

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": path_to_uri(path), "languageId": "cpp", "version": version, "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": path_to_uri(path), "version": version},
            "contentChanges": [{"text": text}]})

    def shutdown(self, timeout=30):
        """shutdown + exit; returns the server's exit status."""
        self.request("shutdown", None, timeout=timeout)
        self.notify("exit", None)
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise LSPError("server did not exit within %d s of exit" % timeout)
        self._stderr.close()
        return status

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


# --- helpers shared by the tests ---------------------------------------------------------------
def finish(client):
    """Shuts the server down, prints its exit status, returns the script's."""
    status = client.shutdown()
    print("exit status: %d" % status)
    return 0 if status == 0 else 1


def offset_of(text, position):
    """Offset in text of an LSP position (clangd negotiates UTF-16 by default; the
    test inputs are ASCII, where UTF-16 units and characters agree)."""
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:position["line"]]) + position["character"]


def apply_edits(text, edits):
    # Apply from the end so that earlier offsets stay valid.
    spans = sorted(((offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"]), e["newText"])
                    for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def example_flags(source):
    """The compile flags of the bundled example, examples/train_fsdp.cpp: LibTorch's
    headers and the shim's, found from the example's own path."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(source)))
    return ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include",
            "-I", os.path.join(root, "shim", "include")]


def write_workspace(directory, sources, flags, clang_tidy=None, clangd=None):
    """Writes sources ({name: text}), a compile_commands.json covering them with flags,
    and optional .clang-tidy / .clangd files; returns the directory."""
    os.makedirs(directory, exist_ok=True)
    commands = []
    for name, text in sources.items():
        path = os.path.join(directory, name)
        with open(path, "w") as f:
            f.write(text)
        commands.append({"directory": directory, "file": path,
                         "arguments": ["/usr/bin/clang++-19"] + flags + ["-c", path]})
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump(commands, f, indent=1)
    for name, content in ((".clang-tidy", clang_tidy), (".clangd", clangd)):
        path = os.path.join(directory, name)
        if content is None:
            if os.path.exists(path):
                os.remove(path)
        else:
            with open(path, "w") as f:
                f.write(content)
    return directory


def server_argv():
    """The server under test, from WRAPGUARD_CLANGD (set by lit), with a fresh index
    and no user config: the test must not depend on ~/.config/clangd."""
    binary = os.environ.get("WRAPGUARD_CLANGD")
    if not binary:
        sys.exit("WRAPGUARD_CLANGD is not set (run through lit)")
    return [binary, "--background-index=false", "--enable-config", "--log=info", "--pch-storage=memory"]


def check(condition, message):
    if not condition:
        raise AssertionError(message)
