#!/usr/bin/env python3
"""build-flags-test.py: tools/bench/build_flags.py reads the -O level of a
build folder from its CMakeCache.txt, and the benchmarks warn when it is -O0
(CTest `bench-build-flags`).

Each case writes a CMakeCache.txt as CMake does and checks the level found:
tools/test's folder (Release with -O0 in its flags), CMake's own Release and
RelWithDebInfo, Debug (no -O: clang's -O0), a -O in CMAKE_CXX_FLAGS that the
build type's flags override, and a folder that has no cache."""
import io
import os
import sys
import tempfile
from contextlib import redirect_stderr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools", "bench"))
sys.dont_write_bytecode = True
import build_flags  # noqa: E402

CASES = [
    ("tools/test", "Release", "", "-O0 -DNDEBUG", "-O0"),
    ("release", "Release", "", "-O3 -DNDEBUG", "-O3"),
    ("relwithdebinfo", "RelWithDebInfo", "", "-O2 -g -DNDEBUG", "-O2"),
    ("debug", "Debug", "", "-g", "-O0"),
    ("type overrides", "RelWithDebInfo", "-O0 -fno-omit-frame-pointer", "-O2 -g", "-O2"),
    ("asan", "Debug", "-O0 -g -fsanitize=address", "-g", "-O0"),
]

failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for name, build_type, flags, type_flags, want in CASES:
        d = os.path.join(tmp, name.replace(" ", "-").replace("/", "-"))
        os.makedirs(d)
        with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
            f.write("//Choose the type of build\nCMAKE_BUILD_TYPE:STRING=%s\n"
                    "//Flags used by the CXX compiler during all build types.\n"
                    "CMAKE_CXX_FLAGS:STRING=%s\n"
                    "CMAKE_CXX_FLAGS_%s:STRING=%s\n"
                    "CMAKE_C_FLAGS_%s:STRING=-O3\n"
                    % (build_type, flags, build_type.upper(), type_flags, build_type.upper()))
        got = build_flags.optimisation(d)
        err = io.StringIO()
        with redirect_stderr(err):
            build_flags.warn_if_unoptimised(d, "bench-x")
        warned = "bench-x: warning: %s is built at -O0" % d in err.getvalue()
        ok = got == want and warned == (want == "-O0")
        print("%-16s %-5s %s%s" % (name, got, "warned" if warned else "quiet",
                                   "" if ok else "   <- want %s" % want))
        failed += not ok
    missing = os.path.join(tmp, "missing")
    got = build_flags.optimisation(missing)
    print("%-16s %s" % ("no cache", got))
    failed += got is not None
sys.exit(1 if failed else 0)
