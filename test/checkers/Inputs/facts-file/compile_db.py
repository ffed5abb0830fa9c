"""Writes DIR/compile_commands.json for one source file: compile_db.py DIR SRC [flags]."""
import json
import os
import sys

out, src, flags = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3:]
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump([{"directory": out, "file": src,
                "arguments": ["clang++", "-std=c++17", *flags, "-c", src]}], f)
