"""make_project.py DIR [--check=NAME] [--broken] [--missing] [--empty]

Writes a small C++ project under DIR and its build/compile_commands.json.
Tests pass a DIR with a space and non-ASCII characters, and one source file
has both in its name. Expected findings (with the default files):

  src/a.cpp:5:3            'p' in use_a
  src/ünï côde.cpp:6:3     'q' in wg::wrap
  include/shared.h:7:3     'h' in in_header (with --header-filter; included
                           by a.cpp, b.cpp and ünï côde.cpp)
  src/b.cpp:5:3            suppressed by NOLINT
  src/clean.cpp            nothing

--broken adds src/broken.cpp, which does not parse; --missing adds a
database entry for src/gone.cpp, which does not exist; --empty writes an
empty database (and no sources).
"""
import argparse
import json
import os

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("--check", default="wrapguard-unchecked-policy-call")
ap.add_argument("--broken", action="store_true")
ap.add_argument("--missing", action="store_true")
ap.add_argument("--empty", action="store_true")
args = ap.parse_args()

root = os.path.abspath(args.dir)
build = os.path.join(root, "build")
os.makedirs(build, exist_ok=True)

files = {
    "include/shared.h": """#pragma once
#include <functional>
std::function<int(int)> get_policy();

inline int in_header() {
  auto h = get_policy();
  h(4);
  return 0;
}
""",
    "src/a.cpp": """#include "shared.h"

int use_a() {
  auto p = get_policy();
  p(1);
  return in_header();
}
""",
    "src/b.cpp": """#include "shared.h"

int use_b() {
  auto p = get_policy();
  p(2); // NOLINT(%s)
  return in_header();
}
""" % args.check,
    "src/ünï côde.cpp": """#include "shared.h"

namespace wg {
void wrap() {
  auto q = get_policy();
  q(5);
}
} // namespace wg
""",
    "src/clean.cpp": """int clean() { return 0; }
""",
}
if args.broken:
    files["src/broken.cpp"] = "int broken( {\n"

entries = []
if not args.empty:
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        if rel.endswith(".cpp"):
            entries.append(path)
    if args.missing:
        entries.append(os.path.join(root, "src", "gone.cpp"))

db = [{"directory": build, "file": path,
       "arguments": ["clang++", "-std=c++17", "-I", os.path.join(root, "include"),
                     "-c", path, "-o", os.path.basename(path) + ".o"]}
      for path in sorted(entries)]
with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as f:
    json.dump(db, f, indent=2, ensure_ascii=False)
