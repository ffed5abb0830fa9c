#!/usr/bin/env python3
"""Tests the lit suites' result cache (test/lit_cache.py).

On a small suite of its own, in a temporary folder: a pass is kept and the
test is not run again while its inputs are unchanged; it runs again when its
file, a file it names, an input of the source tree, a tool it runs through a
substitution, a file the environment names or a lit parameter changes; a
change to a path that no lit test reads (NOT_READ), or to a tool that a test
does not run, keeps its pass; a failure is never kept; WRAPGUARD_TEST_CACHE=0
runs everything.

Then, on the real tree: no file of the lit suites names a path in NOT_READ,
nor runs a program of the build's bin/ by its name on PATH (a key holds the
programs a test names through a substitution or the environment).

Usage: check-cache.py LIT_PY SOURCE_ROOT BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIT, SRC, BUILD = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
sys.path.insert(0, os.path.join(SRC, "test"))
sys.path.insert(0, os.path.dirname(LIT))
import lit_cache  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append("%s: got %s, want %s" % (what, got, want))
    print("%-60s %s" % (what, "ok" if got == want else "FAILED (%s, want %s)" % (got, want)))


LIT_CFG = r'''
import os, sys
import lit.formats
sys.path.insert(0, %(test_dir)r)
import lit_cache
config.name = "mock"
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = %(obj)r + "/test"
config.wrapguard_src_root = %(src)r
config.substitutions.append(("%%tool", %(obj)r + "/bin/tool"))
config.substitutions.append(("%%other", %(obj)r + "/bin/other"))
config.substitutions.append(("%%withopt", "true --load=" + %(obj)r + "/lib/optlib.so"))
config.environment["WRAPGUARD_PLUGIN"] = %(obj)r + "/lib/libwrapguard-tidy.so"
config.test_format = lit_cache.CachedShTest(
    cache_dir=os.path.join(config.test_exec_root, "lit-cache"),
    src_root=%(src)r, base_key=lit_cache.base_key(config))
'''


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


def run_lit(root, *extra, env=None):
    """Runs the mock suite; returns {test name: result code}."""
    out = subprocess.run(
        [sys.executable, LIT, "-a", "-j1", *extra, os.path.join(root, "src", "test", "scanner")],
        capture_output=True, text=True, env=env)
    codes = {}
    for m in re.finditer(r"^(\w+): mock :: scanner/(\S+) \(", out.stdout, re.M):
        codes[m.group(2)] = m.group(1)
    return codes


def mock_tests(root):
    src, obj = os.path.join(root, "src"), os.path.join(root, "obj")
    write(os.path.join(src, "test", "lit.cfg.py"),
          LIT_CFG % {"test_dir": os.path.join(SRC, "test"), "src": src, "obj": obj})
    # a.test runs the tool; b.test reads an input; c.test names a.test;
    # d.test fails unless a marker file exists; e.test names a library in an
    # option (--load=PATH). No test runs %other.
    write(os.path.join(src, "test", "scanner", "a.test"), "RUN: %tool\n")
    write(os.path.join(src, "test", "scanner", "b.test"), "RUN: cat %S/Inputs/data.txt\n")
    write(os.path.join(src, "test", "scanner", "c.test"), "RUN: cat %S/a.test\n")
    write(os.path.join(src, "test", "scanner", "d.test"), "RUN: test -f %S/Inputs/marker\n")
    write(os.path.join(src, "test", "scanner", "e.test"), "RUN: %withopt\n")
    write(os.path.join(src, "test", "scanner", "Inputs", "data.txt"), "1\n")
    write(os.path.join(obj, "lib", "optlib.so"), "v1\n")
    write(os.path.join(src, "docs", "guide.md"), "one\n")
    write(os.path.join(src, "shim", "src", "policy.cpp"), "int x;\n")
    write(os.path.join(obj, "bin", "tool"), "#!/bin/sh\nexit 0\n")
    write(os.path.join(obj, "bin", "other"), "#!/bin/sh\nexit 0\n")
    write(os.path.join(obj, "lib", "libwrapguard-shim.a"), "v1\n")
    write(os.path.join(obj, "lib", "libwrapguard-tidy.so"), "v1\n")
    subprocess.run(["git", "init", "-q", src], check=True)
    return src, obj


def main():
    root = tempfile.mkdtemp(prefix="wrapguard-lit-cache-")
    try:
        src, obj = mock_tests(root)
        first = run_lit(root)
        expect("first run", first, {"a.test": "PASS", "b.test": "PASS",
                                    "c.test": "PASS", "d.test": "FAIL", "e.test": "PASS"})
        again = run_lit(root)
        expect("unchanged: passes kept, the failure runs again", again,
               {"a.test": "CACHED", "b.test": "CACHED", "c.test": "CACHED", "d.test": "FAIL",
                "e.test": "CACHED"})

        write(os.path.join(src, "docs", "guide.md"), "two\n")
        write(os.path.join(src, "shim", "src", "policy.cpp"), "int y;\n")
        write(os.path.join(obj, "lib", "libwrapguard-shim.a"), "v2\n")
        write(os.path.join(obj, "bin", "other"), "#!/bin/sh\nexit 0 # v2\n")
        expect("a doc, a shim source, a build output no test runs changed",
               run_lit(root)["a.test"], "CACHED")

        write(os.path.join(src, "test", "scanner", "Inputs", "data.txt"), "2\n")
        codes = run_lit(root)
        expect("an input changed: every test", [codes[t + ".test"] for t in "abc"], ["PASS"] * 3)

        write(os.path.join(src, "test", "scanner", "a.test"), "RUN: %tool\nRUN: true\n")
        codes = run_lit(root)
        expect("a.test changed: a.test and c.test, which names it",
               [codes[t + ".test"] for t in "abc"], ["PASS", "CACHED", "PASS"])

        write(os.path.join(obj, "bin", "tool"), "#!/bin/sh\nexit 0 # v2\n")
        codes = run_lit(root)
        expect("the tool a.test runs changed: a.test, not b.test",
               [codes["a.test"], codes["b.test"]], ["PASS", "CACHED"])
        write(os.path.join(obj, "lib", "optlib.so"), "v2\n")
        codes = run_lit(root)
        expect("a library a test names in --load=PATH changed: that test",
               [codes["e.test"], codes["a.test"]], ["PASS", "CACHED"])
        write(os.path.join(obj, "lib", "libwrapguard-tidy.so"), "v2\n")
        expect("a file the environment names changed: every test",
               sorted(set(c for t, c in run_lit(root).items() if t != "d.test")), ["PASS"])
        expect("a lit parameter changed", run_lit(root, "--param", "x=1")["b.test"], "PASS")

        write(os.path.join(src, "test", "scanner", "Inputs", "marker"), "")
        codes = run_lit(root)
        expect("the failing test passes, then is kept",
               [codes["d.test"], run_lit(root)["d.test"]], ["PASS", "CACHED"])
        env = dict(os.environ, WRAPGUARD_TEST_CACHE="0")
        expect("WRAPGUARD_TEST_CACHE=0 runs every test",
               sorted(set(run_lit(root, env=env).values())), ["PASS"])
        # A passing test that starts failing loses its entry at once.
        os.remove(os.path.join(src, "test", "scanner", "Inputs", "marker"))
        expect("a kept test that fails now", run_lit(root)["d.test"], "FAIL")
    finally:
        shutil.rmtree(root, ignore_errors=True)

    check_tree()
    if failures:
        print("\n".join(["FAILED:"] + failures))
        return 1
    return 0


def script(rel):
    """A program the tests run (not a lit configuration)."""
    return rel.endswith((".py", ".sh")) and ("/Inputs/" in rel or rel == "test/check-wrapguard.py")


def check_tree():
    """No lit suite file reads what the cache keeps out of a key."""
    names = lit_cache.source_files(SRC)
    lit_files = [n for n in names if n.startswith(lit_cache.LIT_DIRS)
                 or n in ("test/lit.cfg.py", "test/lit.site.cfg.py.in", "test/check-wrapguard.py")]
    # A path in the source tree: %srcroot/<path>, or os.path.join(<root>, "a", "b").
    left_out = [p.rstrip("/") for p in lit_cache.NOT_READ]
    programs = sorted(os.listdir(os.path.join(BUILD, "bin")))
    bad = []
    for rel in lit_files:
        with open(os.path.join(SRC, rel), errors="replace") as f:
            text = f.read()
        paths = re.findall(r"%srcroot/([\w./+-]+)", text)
        for args in re.findall(r"wrapguard_src_root,\s*((?:\"[^\"]+\",?\s*)+)", text):
            paths.append("/".join(re.findall(r"\"([^\"]+)\"", args)))
        for p in paths:
            if p.startswith(tuple(left_out)) or lit_cache.NOT_READ_BUILT.match(p):
                bad.append("%s reads %s" % (rel, p))
        # A program of the build run by its name, found on PATH: a RUN line's
        # command, or a script's quoted program name.
        for name in programs:
            run_lines = "\n".join(re.findall(r"RUN:(.*)", text))
            if re.search(r"(^|[\s|;&(])%s(\s|$)" % re.escape(name), run_lines, re.M) or (
                    script(rel) and re.search(r"[\"']%s[\"']" % re.escape(name), text)):
                bad.append("%s runs %s by its name" % (rel, name))
    expect("the lit suites read nothing left out of the key", bad, [])
    expect("the build's programs found", "wrapguard" in programs, True)
    expect("the lit suites' files found", len(lit_files) > 100, True)


if __name__ == "__main__":
    sys.exit(main())
