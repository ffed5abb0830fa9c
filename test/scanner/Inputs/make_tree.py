"""make_tree.py SRC DIR : copy the project under SRC (e.g. Inputs/trainer)
to DIR and write DIR/build/compile_commands.json with absolute paths, one
entry per DIR/src/*.cpp, compiled with -I DIR/include. Multi-file tests
use it so that each test owns a fresh copy (and may add a .clang-tidy).
SRC/flags.txt, when present, adds one argument per line to every command,
with {root} standing for DIR (it is not copied)."""
import json
import os
import shutil
import sys

src, root = sys.argv[1], os.path.abspath(sys.argv[2])
if os.path.exists(root):
    shutil.rmtree(root)
shutil.copytree(src, root, ignore=shutil.ignore_patterns("flags.txt"))
extra = []
if os.path.exists(os.path.join(src, "flags.txt")):
    with open(os.path.join(src, "flags.txt")) as f:
        extra = [l.strip().replace("{root}", root) for l in f if l.strip()]
build = os.path.join(root, "build")
os.makedirs(build, exist_ok=True)
sources = sorted(os.path.join(root, "src", f)
                 for f in os.listdir(os.path.join(root, "src"))
                 if f.endswith(".cpp"))
db = [{"directory": build, "file": path,
       "arguments": ["clang++", "-std=c++17", "-I", os.path.join(root, "include")] +
                    extra + ["-c", path, "-o", os.path.basename(path) + ".o"]}
      for path in sources]
with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as f:
    json.dump(db, f, indent=2)
