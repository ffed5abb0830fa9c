#!/usr/bin/env python3
"""Dogfood: scan wrapguard's own sources with wrapguard, and fail on any finding.

Usage: test/dogfood.py --scanner BUILD/bin/wrapguard -p BUILD [-j N] [--root DIR]
                       [--cache-dir DIR]

1. Scans every translation unit of BUILD/compile_commands.json under
   checker/, tools/ and shim/ (the project's code; the tests are left out),
   reporting findings from the headers of those folders too. Any finding
   fails.
2. A finding may be silenced only by an explained NOLINT: every NOLINT,
   NOLINTNEXTLINE or NOLINTBEGIN comment in those folders that covers
   wrapguard-* (it names a wrapguard- check, `*`, or no check at all) must
   give a reason after it on the same line, as in

     policy(m); // NOLINT(wrapguard-unchecked-policy-call): set by every caller

   An unexplained one fails, whether or not a finding is under it.

Exit status: 0 clean, 1 findings or unexplained NOLINTs, 2 the scan failed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

FOLDERS = ("checker", "tools", "shim")
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".inc")
# A string literal, so that a NOLINT quoted in a message is not taken for a
# directive (clang-tidy looks at comments' text the same way).
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
DIRECTIVE = re.compile(r"NOLINT(NEXTLINE|BEGIN|END)?(\(([^)]*)\))?(.*)$")
REASON = re.compile(r"[A-Za-z]{3,}")


def project_files(db_path, root):
    with open(db_path, encoding="utf-8") as f:
        entries = json.load(f)
    prefixes = tuple(os.path.join(root, d) + os.sep for d in FOLDERS)
    files = []
    for e in entries:
        path = os.path.normpath(os.path.join(e.get("directory", ""), e["file"]))
        if path.startswith(prefixes) and path not in files:
            files.append(path)
    return files


def unexplained_nolints(root):
    """(file, line, text) of each NOLINT covering wrapguard-* without a reason."""
    bad = []
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        if "NOLINT" not in line:
                            continue
                        code = STRING.sub('""', line)
                        comment = code.find("//")
                        if comment < 0:
                            comment = code.find("/*")
                        if comment < 0:
                            continue
                        m = DIRECTIVE.search(code, comment)
                        if not m or m.group(1) == "END":
                            continue
                        checks = m.group(3)
                        covers = checks is None or "*" in checks or "wrapguard" in checks
                        reason = m.group(4).strip().lstrip(":-–— ").rstrip("*/ ")
                        if covers and not REASON.search(reason):
                            bad.append((os.path.relpath(path, root), number, line.strip()))
    return bad


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scanner", required=True, help="the wrapguard binary")
    ap.add_argument("-p", dest="build", required=True, help="build folder with compile_commands.json")
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("--root", default=os.path.dirname(here), help="source root (default: this repo)")
    ap.add_argument("--cache-dir", help="the scanner's result cache: a rerun rescans only the TUs "
                    "a change reaches (pruned after the scan, so it keeps one scan's entries)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)

    status = 0
    for path, number, text in unexplained_nolints(root):
        print("%s:%d: NOLINT covering wrapguard-* without a reason after it: %s"
              % (path, number, text))
        status = 1

    files = project_files(os.path.join(args.build, "compile_commands.json"), root)
    if not files:
        print("dogfood: no translation unit under %s in %s/compile_commands.json"
              % ("/, ".join(FOLDERS) + "/", args.build))
        return 2
    header_filter = "^%s/(%s)/" % (re.escape(root), "|".join(FOLDERS))
    cmd = [args.scanner, "-p", args.build, "-j", str(args.jobs), "--quiet",
           "--header-filter=" + header_filter, "--source-root=" + root] + files
    if args.cache_dir:
        cmd += ["--cache-dir", args.cache_dir]
    start = time.monotonic()
    rc = subprocess.run(cmd).returncode
    elapsed = time.monotonic() - start
    if rc == 1:
        print("dogfood: wrapguard reports findings in its own code (above); fix them, or "
              "silence one with a NOLINT(wrapguard-...) that says why")
        status = 1
    elif rc != 0:
        print("dogfood: the scan failed (exit status %d): %s" % (rc, " ".join(cmd[:8]) + " ..."))
        return 2
    if args.cache_dir and subprocess.run([args.scanner, "cache", "--prune", args.cache_dir],
                                         stdout=subprocess.DEVNULL).returncode != 0:
        print("dogfood: wrapguard cache --prune %s failed" % args.cache_dir)
        return 2
    print("dogfood: %d translation units under %s scanned in %.0f s: %s"
          % (len(files), ", ".join(f + "/" for f in FOLDERS), elapsed,
             "clean" if status == 0 else "FAILED"))
    return status


if __name__ == "__main__":
    sys.exit(main())
