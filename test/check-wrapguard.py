#!/usr/bin/env python3
"""Run clang-tidy with the wrapguard plugin on one lit test and check it.

Usage (from a lit RUN line):

  // RUN: %check_wrapguard %s %t [options] [-- extra clang args]

Options:
  -check-suffix=SFX       use the prefixes CHECK-MESSAGES-SFX, CHECK-NOTES-SFX
                          and CHECK-FIXES-SFX instead of the plain ones
  -check-suffixes=A,B     several suffixes at once; an empty item means the
                          plain prefixes (e.g. -check-suffixes=,STRICT)
  -config=YAML            passed to clang-tidy as --config=YAML
  -config-from-file       pass no --config, so clang-tidy reads the
                          .clang-tidy files above the temporary file
                          (by default the runner passes --config={} so that
                          no .clang-tidy of the surrounding tree leaks in)
  -no-compile             do not compile the fixed file
  -expect-error           clang-tidy is expected to fail (invalid code); its
                          errors must then be matched by CHECK-MESSAGES
  -no-fix                 run without --fix

What it does, in order:
  1. copies INPUT to TEMP.cpp, replacing every `// CHECK-...:` comment by
     `//` so that line numbers stay put and no check matches its own text;
  2. runs clang-tidy --load=PLUGIN --checks='-*,wrapguard-*' --fix on it;
  3. FileChecks the output against CHECK-MESSAGES (with every unexpected
     warning or error failing the test) -- or, when the file has no such
     lines, asserts that there is no warning at all;
  4. FileChecks the output against CHECK-NOTES when present (unexpected
     notes, warnings and errors fail);
  5. FileChecks the fixed TEMP.cpp against CHECK-FIXES when present;
  6. compiles the fixed file with clang++ -fsyntax-only, so every fix-it is
     proven to compile (skipped when --fix changed nothing: clang-tidy has
     then parsed that very text, and exits non-zero on a compiler error).

Tool paths come from the environment that test/lit.cfg.py sets
(WRAPGUARD_CLANG_TIDY, WRAPGUARD_PLUGIN, WRAPGUARD_FILECHECK,
WRAPGUARD_CLANGXX, WRAPGUARD_SHIM_INCLUDE), from the LLVM package the
build found; outside lit they default to LLVM 19's versioned tools on PATH
(clang-tidy-19, FileCheck-19, clang++-19) and build/lib/libwrapguard-tidy.so.
WRAPGUARD_STDLIB_FLAGS (e.g. -stdlib=libc++, in the suite's libc++ run) is
added to both compile commands, clang-tidy's and clang++'s.
"""

import os
import re
import shlex
import subprocess
import sys

CHECK_NAME_GLOB = "-*,wrapguard-*"
SRC_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A `// CHECK-<anything>:` comment, to the end of the line.
CHECK_COMMENT = re.compile(r"//\s*CHECK-[A-Za-z0-9_-]*:.*$")


class TestFailure(Exception):
    pass


def tool(env_name, default):
    return os.environ.get(env_name) or default


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def run(cmd, stdin_text=None):
    proc = subprocess.run(cmd, input=stdin_text, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


def report(what, cmd, output, extra=""):
    msg = ["", "=" * 72, "FAILED: " + what, "command:", "  " + quote(cmd)]
    if extra:
        msg += [extra]
    msg += ["output:", output.rstrip() or "  (none)", "=" * 72]
    return "\n".join(msg)


def fail(what, cmd, output, extra=""):
    raise TestFailure(report(what, cmd, output, extra))


def parse_args(argv):
    opts = {
        "suffixes": [""],
        "config": None,
        "config_from_file": False,
        "compile": True,
        "expect_error": False,
        "fix": True,
    }
    if len(argv) < 2:
        raise TestFailure(__doc__)
    opts["input"], opts["temp"] = argv[0], argv[1]
    rest = argv[2:]
    extra = []
    if "--" in rest:
        i = rest.index("--")
        rest, extra = rest[:i], rest[i + 1:]
    for a in rest:
        if a.startswith("-check-suffix="):
            opts["suffixes"] = [a.split("=", 1)[1]]
        elif a.startswith("-check-suffixes="):
            opts["suffixes"] = a.split("=", 1)[1].split(",")
        elif a.startswith("-config="):
            opts["config"] = a.split("=", 1)[1]
        elif a == "-config-from-file":
            opts["config_from_file"] = True
        elif a == "-no-compile":
            opts["compile"] = False
        elif a == "-expect-error":
            opts["expect_error"] = True
        elif a == "-no-fix":
            opts["fix"] = False
        else:
            raise TestFailure("check-wrapguard.py: unknown option '%s'\n%s" % (a, __doc__))
    for s in opts["suffixes"]:
        if s and not re.fullmatch(r"[A-Za-z0-9_-]+", s):
            raise TestFailure("check-wrapguard.py: invalid check suffix '%s'" % s)
    opts["extra"] = extra
    return opts


def prefixes(kind, suffixes):
    return ["CHECK-%s%s" % (kind, "-" + s if s else "") for s in suffixes]


def has_prefix(text, prefix):
    # A directive is PREFIX: or PREFIX-NEXT:, -SAME:, -NOT:, -DAG:, -EMPTY:.
    return re.search(r"\b%s(-NEXT|-SAME|-NOT|-DAG|-EMPTY|-LABEL)?:" % re.escape(prefix),
                     text) is not None


def main(argv):
    opts = parse_args(argv)
    clang_tidy = tool("WRAPGUARD_CLANG_TIDY", "clang-tidy-19")
    plugin = tool("WRAPGUARD_PLUGIN", os.path.join(SRC_ROOT, "build", "lib", "libwrapguard-tidy.so"))
    filecheck = tool("WRAPGUARD_FILECHECK", "FileCheck-19")
    clangxx = tool("WRAPGUARD_CLANGXX", "clang++-19")
    shim_include = tool("WRAPGUARD_SHIM_INCLUDE", os.path.join(SRC_ROOT, "shim", "include"))

    with open(opts["input"], encoding="utf-8") as f:
        original = f.read()
    stripped = "\n".join(CHECK_COMMENT.sub("//", line) for line in original.split("\n"))

    temp_dir = os.path.dirname(os.path.abspath(opts["temp"]))
    os.makedirs(temp_dir, exist_ok=True)
    temp_cpp = opts["temp"] + ".cpp"
    with open(temp_cpp, "w", encoding="utf-8") as f:
        f.write(stripped)

    msg_prefixes = [p for p in prefixes("MESSAGES", opts["suffixes"]) if has_prefix(original, p)]
    note_prefixes = [p for p in prefixes("NOTES", opts["suffixes"]) if has_prefix(original, p)]
    fix_prefixes = [p for p in prefixes("FIXES", opts["suffixes"]) if has_prefix(original, p)]

    # WRAPGUARD_STDLIB_FLAGS: -stdlib=libc++ in the libc++ run of the suite.
    base_args = ["-std=c++17"] + shlex.split(os.environ.get("WRAPGUARD_STDLIB_FLAGS", "")) + \
        opts["extra"]
    cmd = [clang_tidy, "--load=" + plugin, "--checks=" + CHECK_NAME_GLOB]
    if opts["fix"]:
        cmd.append("--fix")
    if opts["config"] is not None:
        cmd.append("--config=" + opts["config"])
    elif not opts["config_from_file"]:
        cmd.append("--config={}")
    cmd += [temp_cpp, "--"] + base_args

    rc, output = run(cmd)
    # --fix adds a note to every fixed warning; tests assert the edits with
    # CHECK-FIXES instead, as LLVM's runner does.
    output = "\n".join(l for l in output.splitlines()
                       if "note: FIX-IT applied suggested code changes" not in l) + "\n"
    with open(opts["temp"] + ".msg", "w", encoding="utf-8") as f:
        f.write(output)
    if "Stack dump" in output or "PLEASE submit a bug report" in output or rc < 0:
        fail("clang-tidy crashed (exit code %d)" % rc, cmd, output)
    if rc != 0 and not opts["expect_error"]:
        fail("clang-tidy exited with %d (use -expect-error for invalid code)" % rc, cmd, output)
    if rc == 0 and opts["expect_error"]:
        fail("clang-tidy succeeded but -expect-error was given", cmd, output)

    # Every later step runs even when an earlier one failed, so one run
    # shows both a missing warning and, say, a fix that does not compile.
    failures = []

    def filecheck_step(check_prefixes, extra, text, title, shown):
        """FileCheck `text` against the test's lines for `check_prefixes`."""
        fc = [filecheck, opts["input"], "--check-prefixes=" + ",".join(check_prefixes)] + \
            extra + ["--dump-input=never"]
        frc, fout = run(fc, text)
        if frc != 0:
            failures.append(report(title, fc, shown, "clang-tidy command:\n  %s\nFileCheck says:\n%s"
                                   % (quote(cmd), fout.rstrip())))

    # The summary lines ("N warnings generated.", "Suppressed ...") carry no
    # "warning:" and so never trip the implicit checks.
    if msg_prefixes:
        filecheck_step(msg_prefixes, ["--implicit-check-not={{warning|error}}:"], output,
                       "CHECK-MESSAGES did not match clang-tidy's output", output)
    elif not note_prefixes:
        unexpected = [l for l in output.splitlines() if re.search(r"\b(warning|error):", l)]
        if unexpected:
            failures.append(report(
                "expected no warnings (no %s lines in the test), got %d"
                % ("/".join(prefixes("MESSAGES", opts["suffixes"])), len(unexpected)),
                cmd, output))

    if note_prefixes:
        filecheck_step(note_prefixes, ["--implicit-check-not={{note|warning|error}}:"], output,
                       "CHECK-NOTES did not match clang-tidy's output", output)

    with open(temp_cpp, encoding="utf-8") as f:
        fixed = f.read()
    if fix_prefixes:
        filecheck_step(fix_prefixes, ["--strict-whitespace"], fixed,
                       "CHECK-FIXES did not match the fixed file", numbered(fixed))

    # A file that --fix left as it was needs no second parse: clang-tidy has
    # just parsed this very text with the same flags and exited 0, which it
    # does not do on a compiler error. Only an edit needs the compile.
    if opts["compile"] and (fixed != stripped or rc != 0):
        cc = [clangxx, "-fsyntax-only", "-I", shim_include] + base_args + [temp_cpp]
        crc, cout = run(cc)
        if crc != 0:
            failures.append(report("the fixed file does not compile", cc, cout,
                                   "fixed file (%s):\n%s" % (temp_cpp, numbered(fixed))))
    if failures:
        raise TestFailure("\n".join(failures))
    return 0


def numbered(text):
    return "\n".join("%4d| %s" % (i + 1, l) for i, l in enumerate(text.split("\n")))


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except TestFailure as e:
        print(str(e), file=sys.stderr)
        sys.exit(1)
