"""One editor session on the example, as an LSP client would run it.

Usage: example_session.py SOURCE WORKDIR APPLIED [--facts FILE]

Copies SOURCE into WORKDIR with a compile database and a .clang-tidy enabling
wrapguard-*, then: initialize, didOpen, print the wrapguard diagnostics (for
FileCheck), ask for code actions on the first one, apply its quick fix and
write the result to APPLIED, didChange to that text and print the diagnostics
again, then shutdown/exit and print the exit status.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import lsp  # noqa: E402

CHECK = "wrapguard-unchecked-policy-call"


def show(label, diagnostics):
    """One line per wrapguard diagnostic, 1-based like the compiler's."""
    ours = [d for d in diagnostics if d.get("code") == CHECK]
    print("%s: %d wrapguard diagnostic(s)" % (label, len(ours)))
    for d in ours:
        start, end = d["range"]["start"], d["range"]["end"]
        print("diagnostic %d:%d-%d:%d [%s] %s: %s" % (
            start["line"] + 1, start["character"] + 1, end["line"] + 1, end["character"] + 1,
            d.get("source"), d["code"], d["message"].splitlines()[0]))
        for info in d.get("relatedInformation", []):
            pos = info["location"]["range"]["start"]
            print("  related %s:%d:%d: %s" % (os.path.basename(info["location"]["uri"]),
                                              pos["line"] + 1, pos["character"] + 1, info["message"]))
    return ours


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("workdir")
    parser.add_argument("applied")
    parser.add_argument("--clang-tidy", default="Checks: '-*,wrapguard-*'\n")
    args = parser.parse_args()

    with open(args.source) as f:
        text = f.read()
    name = os.path.basename(args.source)
    flags = lsp.example_flags(args.source)
    workdir = lsp.write_workspace(os.path.abspath(args.workdir), {name: text}, flags,
                                  clang_tidy=args.clang_tidy)
    path = os.path.join(workdir, name)
    uri = lsp.path_to_uri(path)

    client = lsp.Client(lsp.server_argv(), cwd=workdir,
                        stderr_path=os.path.join(workdir, "server.log"))
    try:
        init = client.initialize(workdir)
        print("server:", init.get("serverInfo", {}).get("name"))
        client.open(path, text, version=1)
        ours = show("open", client.wait_for_diagnostics(uri, version=1))
        lsp.check(ours, "no %s diagnostic after didOpen" % CHECK)

        diag = ours[0]
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"],
            "context": {"diagnostics": [diag], "only": ["quickfix"]}}) or []
        fixes = [a for a in actions if a.get("kind") == "quickfix" and "edit" in a]
        lsp.check(fixes, "no quick fix offered for the diagnostic: %r" % actions)
        print("quickfix: %s" % fixes[0]["title"])
        edits = fixes[0]["edit"]["changes"][uri]
        fixed = lsp.apply_edits(text, edits)
        with open(args.applied, "w") as f:
            f.write(fixed)

        client.change(path, fixed, version=2)
        after = client.wait_for_diagnostics(uri, version=2)
        show("after fix", after)
        # clangd has parsed the fixed text with the file's own compile
        # command: no error (LSP severity 1) means the fix compiles, which
        # the test would otherwise prove with one more parse of LibTorch.
        errors = [d for d in after if d.get("severity") == 1]
        print("after fix: %d error(s)" % len(errors))
        for d in errors:
            print("error %d:%d %s" % (d["range"]["start"]["line"] + 1,
                                      d["range"]["start"]["character"] + 1, d["message"]))

        return lsp.finish(client)
    finally:
        client.kill()


if __name__ == "__main__":
    sys.exit(main())
