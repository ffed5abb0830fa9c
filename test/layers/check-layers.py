#!/usr/bin/env python3
"""The checker's layers depend only downward, and the build enforces it.

checker/ has one folder per layer, each built as one library whose include
directory is its own folder (checker/CMakeLists.txt). A layer sees the
headers of the layers it links, and no others. This test takes the real
compile command of one source file of each layer from the build's
compile_commands.json and preprocesses, with it, a probe that includes
headers of every layer:

  - every header of the layer itself and of the layers below it must be
    found (the probe preprocesses cleanly);
  - a header of any other layer (above it, or beside it) must not be found:
    the probe fails with "file not found".

So adding an upward include to a layer's source fails its build, and this
test fails if a CMake change makes one possible.

Within and across layers, files must not depend on each other in a cycle
either: a file is a header and its source (X.h and X.cpp), it depends on
the files whose headers it includes, and the test fails on every cycle of
that graph, named file by file. Each further folder given (the scanner,
tools/wrapguard) is held to the same rule, on its own files.

Usage: check-layers.py BUILD_DIR CHECKER_SOURCE_DIR [FOLDER...]
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# Which layers each layer may use: its link closure in checker/*/CMakeLists.txt.
ALLOWED = {
    "vocab": {"vocab"},
    "facts": {"facts", "vocab"},
    "engine": {"engine", "vocab"},
    "analysis": {"analysis", "engine", "facts", "vocab"},
    "tidy": {"tidy", "analysis", "engine", "facts", "vocab"},
}


def layer_command(db, checker, layer):
    """The compile command of one source of the layer, as an argument list
    without its output, input and dependency-file arguments."""
    folder = os.path.join(checker, layer) + os.sep
    for entry in db:
        if entry["file"].startswith(folder) and entry["file"].endswith(".cpp"):
            args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
            out, skip = [], 0
            for i, a in enumerate(args):
                if skip:
                    skip -= 1
                    continue
                if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
                    skip = 1
                    continue
                # The target's PCH (cmake/WrapguardPrecompile.cmake) holds no
                # wrapguard header, so it cannot change what the probe finds;
                # loading it would only make each probe slower.
                if a == "-Xclang" and args[i + 1:i + 2] in (["-include-pch"], ["-include"]):
                    skip = 3
                    continue
                if a in ("-MD", "-MMD") or a == entry["file"]:
                    continue
                out.append(a)
            return out, entry["directory"]
    sys.exit("check-layers: no source of checker/%s in compile_commands.json" % layer)


def preprocess(args, cwd, headers):
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as probe:
        for h in headers:
            probe.write('#include "%s"\n' % h)
    try:
        r = subprocess.run(args + ["-E", probe.name, "-o", os.devnull], cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return r.returncode, r.stderr
    finally:
        os.unlink(probe.name)


def include_graph(folders):
    """File (the stem of X.h and X.cpp) -> the files whose headers it
    includes, over every folder of \p folders."""
    paths = {}
    for folder in folders:
        for name in os.listdir(folder):
            stem, ext = os.path.splitext(name)
            if ext in (".h", ".cpp"):
                paths.setdefault(stem, []).append(os.path.join(folder, name))
    include = re.compile(r'^\s*#\s*include\s+"([^"/]+)\.h"', re.M)
    graph = {}
    for stem, files in paths.items():
        graph[stem] = set()
        for path in files:
            with open(path) as f:
                for used in include.findall(f.read()):
                    if used in paths and used != stem:
                        graph[stem].add(used)
    return graph


def cycles(graph):
    """The strongly connected components of more than one file (Tarjan),
    each sorted, in sorted order."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def main():
    build, checker = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(os.path.join(build, "compile_commands.json")) as f:
        db = json.load(f)
    headers = {layer: sorted(h for h in os.listdir(os.path.join(checker, layer))
                             if h.endswith(".h"))
               for layer in ALLOWED}
    failures = 0
    for layer, allowed in ALLOWED.items():
        args, cwd = layer_command(db, checker, layer)
        seen = [h for other in sorted(allowed) for h in headers[other]]
        rc, err = preprocess(args, cwd, seen)
        if rc != 0:
            failures += 1
            print("FAIL: %s cannot include its own or lower layers' headers:\n%s" % (layer, err))
        else:
            print("ok: %s includes %d headers of %s" % (layer, len(seen), ", ".join(sorted(allowed))))
        for other in sorted(set(ALLOWED) - allowed):
            leaks = [h for h in headers[other]
                     if "'%s' file not found" % h not in preprocess(args, cwd, [h])[1]]
            failures += len(leaks)
            for h in leaks:
                print("FAIL: %s can include %s/%s, a layer it must not use" % (layer, other, h))
            if not leaks:
                print("ok: %s cannot include any header of %s" % (layer, other))
    groups = [("checker/", [os.path.join(checker, layer) for layer in ALLOWED])]
    groups += [(os.path.abspath(f), [os.path.abspath(f)]) for f in sys.argv[3:]]
    for name, folders in groups:
        graph = include_graph(folders)
        for component in cycles(graph):
            failures += 1
            edges = ["%s -> %s" % (a, b) for a in component for b in sorted(graph[a])
                     if b in component]
            print("FAIL: files of %s include each other in a cycle: %s" %
                  (name, ", ".join(edges)))
        if not cycles(graph):
            print("ok: no cycle among the %d files of %s" % (len(graph), name))
    if failures:
        print("layers: %d failure(s)" % failures)
        return 1
    print("layers: every layer sees only the layers below it, and no file "
          "depends on itself")
    return 0


if __name__ == "__main__":
    sys.exit(main())
