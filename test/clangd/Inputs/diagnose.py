"""Opens files in the server and prints the diagnostics it publishes, for FileCheck.

Usage: diagnose.py WORKDIR SOURCE... [--clang-tidy TEXT] [--clangd TEXT] [--flags FLAGS]
                   [--no-cdb] [--outside]
       diagnose.py --in-place ROOT SOURCE...

Each SOURCE is copied into WORKDIR (with a compile database unless --no-cdb, and the
given .clang-tidy / .clangd); --outside puts the first source in a sibling folder that
no compile database covers. For each file it prints "FILE: N diagnostic(s)" and one line
"L:C [source] code: message" per diagnostic, sorted. Then it checks that the server still
answers a request (documentSymbol) and exits cleanly after shutdown/exit.

--in-place opens the sources where they are, in the workspace ROOT, and writes nothing:
what an editor opening a project's file sees, with the project's own compile database
(clangd looks for it in the file's folders and their build/ folders).
"""
import argparse
import os
import shlex
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
import lsp  # noqa: E402


def show(name, diagnostics):
    print("%s: %d diagnostic(s)" % (name, len(diagnostics)))
    lines = []
    for d in diagnostics:
        start = d["range"]["start"]
        lines.append((start["line"], start["character"], "%d:%d [%s] %s: %s" % (
            start["line"] + 1, start["character"] + 1, d.get("source"), d.get("code"),
            d["message"].splitlines()[0] if d["message"] else "")))
    for _, _, line in sorted(lines):
        print("  " + line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workdir")
    parser.add_argument("sources", nargs="+")
    parser.add_argument("--clang-tidy")
    parser.add_argument("--clangd")
    parser.add_argument("--flags", default="-std=c++17")
    parser.add_argument("--no-cdb", action="store_true")
    parser.add_argument("--outside", action="store_true")
    parser.add_argument("--in-place", action="store_true")
    args = parser.parse_args()

    if args.in_place:
        root = os.path.abspath(args.workdir)
        paths = [os.path.abspath(s) for s in args.sources]
        texts = {}
        for path in paths:
            with open(path) as f:
                texts[os.path.basename(path)] = f.read()
        return run_session(root, paths, texts, stderr_path=None)

    workdir = os.path.abspath(args.workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    texts = {}
    for source in args.sources:
        with open(source) as f:
            texts[os.path.basename(source)] = f.read()
    if args.no_cdb:
        os.makedirs(workdir)
        for name, text in texts.items():
            with open(os.path.join(workdir, name), "w") as f:
                f.write(text)
        for name, content in ((".clang-tidy", args.clang_tidy), (".clangd", args.clangd)):
            if content is not None:
                with open(os.path.join(workdir, name), "w") as f:
                    f.write(content)
    else:
        lsp.write_workspace(workdir, texts, shlex.split(args.flags), args.clang_tidy, args.clangd)

    paths = [os.path.join(workdir, name) for name in texts]
    if args.outside:
        # A sibling of the project: no compile_commands.json in it or above it.
        outside = workdir + "-outside"
        shutil.rmtree(outside, ignore_errors=True)
        os.makedirs(outside)
        moved = os.path.join(outside, os.path.basename(paths[0]))
        shutil.move(paths[0], moved)
        paths[0] = moved

    return run_session(workdir, paths, texts, os.path.join(workdir, "server.log"))


def run_session(workdir, paths, texts, stderr_path):
    client = lsp.Client(lsp.server_argv(), cwd=workdir, stderr_path=stderr_path)
    try:
        client.initialize(workdir)
        for path in paths:
            client.open(path, texts[os.path.basename(path)])
            show(os.path.basename(path), client.wait_for_diagnostics(lsp.path_to_uri(path), version=1))
        # Still serving: a request on each file gets an answer.
        for path in paths:
            client.request("textDocument/documentSymbol",
                           {"textDocument": {"uri": lsp.path_to_uri(path)}})
        return lsp.finish(client)
    finally:
        client.kill()


if __name__ == "__main__":
    sys.exit(main())
