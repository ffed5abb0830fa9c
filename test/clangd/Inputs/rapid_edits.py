"""50 didChange edits of the example, sent back to back, then the final diagnostics.

Usage: rapid_edits.py SOURCE WORKDIR

The edits cycle through the text cut mid-function (syntax errors), the fixed text
and the original with a trailing comment; the last (version 51) is the original plus
a comment, so the one wrapguard diagnostic must come back for it. clangd may skip
versions it never gets to; the test waits for the final one only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import lsp  # noqa: E402

CHECK = "wrapguard-unchecked-policy-call"


def main():
    source, workdir = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(source) as f:
        text = f.read()
    name = os.path.basename(source)
    lsp.write_workspace(workdir, {name: text},
                        lsp.example_flags(source),
                        clang_tidy="Checks: '-*,wrapguard-*'\n")
    path = os.path.join(workdir, name)
    uri = lsp.path_to_uri(path)
    fixed = text.replace("policy(module);", "(policy ? policy(module) : module);")
    lsp.check(fixed != text, "the example no longer has the unchecked call this test edits")

    client = lsp.Client(lsp.server_argv(), cwd=workdir,
                        stderr_path=os.path.join(workdir, "server.log"))
    try:
        client.initialize(workdir)
        client.open(path, text, version=1)
        for version in range(2, 52):
            kind = version % 3
            if version == 51 or kind == 0:
                edit = text + "// edit %d\n" % version
            elif kind == 1:
                edit = text[:len(text) * version // 60]  # cut anywhere: broken code
            else:
                edit = fixed
            client.change(path, edit, version)
        diagnostics = client.wait_for_diagnostics(uri, version=51)
        ours = [d for d in diagnostics if d.get("code") == CHECK]
        for d in ours:
            start = d["range"]["start"]
            print("final: %d:%d %s" % (start["line"] + 1, start["character"] + 1, d["code"]))
        print("final: %d wrapguard diagnostic(s), %d in all" % (len(ours), len(diagnostics)))
        return lsp.finish(client)
    finally:
        client.kill()


if __name__ == "__main__":
    sys.exit(main())
