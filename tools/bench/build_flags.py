"""Whether a build folder holds optimised binaries, for the benchmarks.

tools/test builds its folder (build/, the benchmarks' default) at -O0: the
suite's time is spent in clang's and LibTorch's libraries, and -O0 halves its
compile. A benchmark of that folder would time wrapguard's own code without
optimisation, so each benchmark warns before it measures one."""
import os
import re
import sys


def optimisation(build_dir):
    """The -O level the C++ code of BUILD_DIR is compiled with, as CMake's
    cache says ("-O0", "-O2", ...), or None when there is no cache."""
    cache = os.path.join(build_dir, "CMakeCache.txt")
    try:
        with open(cache, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None

    def value(name):
        m = re.search(r"^%s(?::[A-Z]+)?=(.*)$" % re.escape(name), text, re.M)
        return m.group(1).strip() if m else ""

    build_type = value("CMAKE_BUILD_TYPE")
    flags = value("CMAKE_CXX_FLAGS")
    if build_type:
        flags += " " + value("CMAKE_CXX_FLAGS_" + build_type.upper())
    levels = re.findall(r"(?:^|\s)(-O[0-9sgz]?)(?=\s|$)", flags)
    # No -O at all is clang's default: -O0.
    return levels[-1] if levels else "-O0"


def warn_if_unoptimised(build_dir, tool):
    level = optimisation(build_dir)
    if level in ("-O0", "-Og"):
        sys.stderr.write(
            "%s: warning: %s is built at %s (tools/test builds its folder so); the times of "
            "wrapguard's own code are not those of a release. For figures to publish, "
            "configure a folder with -DCMAKE_BUILD_TYPE=RelWithDebInfo and pass it.\n"
            % (tool, build_dir, level))
