#!/usr/bin/env python3
"""install-test.py --build BUILD --source SRC --clang-tidy CT --cxx CXX [--shim]

The install, tested as a user meets it (CTest `install`):

  1. `cmake --install BUILD --prefix TMP/prefix` puts the tools, the plugin,
     the shim's headers, library and CMake package, and the docs there;
  2. the installed `wrapguard` scans a small project and reports its
     finding; `wrapguard-clangd --version` and (with the shim)
     `wrapguard-verify --help` run;
  3. clang-tidy-19 loads the installed plugin and reports the same finding;
  4. with the shim: a consumer project (test/install/consumer) finds the
     package with find_package(wrapguard), builds against wrapguard::call
     and wrapguard::shim, and its programs run;
  5. `cpack -G DEB` builds a .deb that depends on Debian's LLVM 19 (the
     libraries the binaries load, and clang-tidy-19 for the plugin) and,
     with the shim, LibTorch, and that holds the same files.

Everything it writes is under BUILD/test/install. Any step that fails stops
the test with what it ran and what came out."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--build", required=True)
ap.add_argument("--source", required=True)
ap.add_argument("--clang-tidy", required=True)
ap.add_argument("--cxx", required=True)
ap.add_argument("--shim", action="store_true")
args = ap.parse_args()

build = os.path.abspath(args.build)
work = os.path.join(build, "test", "install")
prefix = os.path.join(work, "prefix")


def run(cmd, want=0, cwd=None, env=None):
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != want:
        sys.exit("install-test: %s\nexited with %d, expected %d:\n%s" %
                 (" ".join(cmd), proc.returncode, want, proc.stdout))
    return proc.stdout


def expect(text, needle, what):
    if needle not in text:
        sys.exit("install-test: %s: expected %r in:\n%s" % (what, needle, text))


def installed(pattern):
    hits = glob.glob(os.path.join(prefix, pattern))
    if not hits:
        sys.exit("install-test: nothing installed matches %s under %s" %
                 (pattern, prefix))
    return hits[0]


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# 1. The install.
run(["cmake", "--install", build, "--prefix", prefix])
scanner = installed("bin/wrapguard")
clangd = installed("bin/wrapguard-clangd")
plugin = installed("lib*/libwrapguard-tidy.so")
for doc in ("share/doc/wrapguard/README.md", "share/doc/wrapguard/ci.md",
            "share/doc/wrapguard/checks/unchecked-policy-call.md"):
    installed(doc)
if args.shim:
    verify = installed("bin/wrapguard-verify")
    installed("include/wrapguard/call.h")
    installed("include/wrapguard/policy.h")
    installed("lib*/libwrapguard-shim.a")
    installed("lib*/cmake/wrapguard/wrapguardConfig.cmake")
    if glob.glob(os.path.join(prefix, "include", "wrapguard", "cpu_memory.h")):
        sys.exit("install-test: a private header of the shim was installed")

# 2. The installed tools run.
project = os.path.join(work, "project")
os.makedirs(project)
source = os.path.join(project, "train.cpp")
with open(source, "w") as f:
    f.write("#include <functional>\n"
            "std::function<int(int)> resolve_wrap_policy(int);\n"
            "int train(int cfg) {\n"
            "  auto policy = resolve_wrap_policy(cfg);\n"
            "  return policy(cfg);\n"
            "}\n")
with open(os.path.join(project, "compile_commands.json"), "w") as f:
    json.dump([{"directory": project, "file": source,
                "arguments": ["clang++", "-std=c++17", "-c", source]}], f)
expect(run([scanner, "--version"]), "wrapguard ", "wrapguard --version")
out = run([scanner, "-p", project, "--quiet"], want=1)
expect(out, "train.cpp:5:10: warning: call through possibly empty callable "
       "'policy' [wrapguard-unchecked-policy-call]", "the installed scanner")
expect(run([clangd, "--version"]), "wrapguard-clangd: wrapguard ",
       "wrapguard-clangd --version")
if args.shim:
    expect(run([verify, "--help"]), "usage:", "wrapguard-verify --help")

# 3. The installed plugin in clang-tidy-19.
out = run([args.clang_tidy, "--load=" + plugin, "--checks=-*,wrapguard-*",
           source, "--", "-std=c++17"], want=0)
expect(out, "train.cpp:5:10: warning: call through possibly empty callable "
       "'policy' [wrapguard-unchecked-policy-call]", "clang-tidy-19 --load")

# 4. A consumer of the CMake package.
if args.shim:
    consumer = os.path.join(work, "consumer")
    run(["cmake", "-S", os.path.join(args.source, "test", "install", "consumer"),
         "-B", consumer, "-G", "Ninja", "-DCMAKE_CXX_COMPILER=" + args.cxx,
         "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + prefix])
    run(["cmake", "--build", consumer])
    expect(run([os.path.join(consumer, "uses_call")]), "call: 7 14", "uses_call")
    expect(run([os.path.join(consumer, "uses_shim")]), "shim: wrapped 2 modules",
           "uses_shim")

# 5. The Debian package.
deb_dir = os.path.join(work, "deb")
run(["cpack", "-G", "DEB", "-B", deb_dir], cwd=build)
debs = glob.glob(os.path.join(deb_dir, "wrapguard_*.deb"))
if len(debs) != 1:
    sys.exit("install-test: cpack made %s, expected one wrapguard_*.deb" % debs)
depends = run(["dpkg-deb", "--field", debs[0], "Depends"])
wanted = ["clang-tidy-19", "libclang-cpp19", "libllvm19"]
if args.shim:
    wanted += ["libtorch-dev", "libtorch1"]
for name in wanted:
    expect(depends, name, "the .deb's Depends")
contents = run(["dpkg-deb", "--contents", debs[0]])
for path in ["./usr/bin/wrapguard", "./usr/bin/wrapguard-clangd",
             "libwrapguard-tidy.so", "./usr/share/doc/wrapguard/README.md"] + \
        (["./usr/include/wrapguard/call.h", "wrapguardConfig.cmake",
          "./usr/bin/wrapguard-verify"] if args.shim else []):
    expect(contents, path, "the .deb's files")
print("install-test: installed into %s, ran the tools, loaded the plugin, "
      "%sbuilt %s" % (prefix, "built a find_package consumer, " if args.shim else "",
                      os.path.basename(debs[0])))
