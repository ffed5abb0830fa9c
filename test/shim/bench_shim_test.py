"""bench_shim_test.py: tools/bench/bench-shim --plain-only or --full-only end to end.

Usage: bench_shim_test.py --build-dir DIR [--mode plain-only|full-only]

On a tiny model, for two rounds: every round runs the four plain-step
processes (C++ and Python, each with malloc as it comes and with freed memory
retained), the report has a row per round and the three C++/Python ratio
lines with their intervals, and --json holds every process's result. With
--full-only, each round also runs C++ full recompute and Python's variants,
and the report compares them (C++ against Python at equal memory), with no
budget or selective rows. Timing is not judged here: the figures come from the
script's own runs in docs/bench-shim.md. This catches a broken script, not a
slow step.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUNDS = 2
PLAINS = ["cpp-plain", "py-plain", "cpp-plain-retain", "py-plain-retain"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--mode", choices=["plain-only", "full-only"], default="plain-only")
    args = ap.parse_args()
    full = args.mode == "full-only"
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
            sys.stderr.write("FAIL: %s\n" % what)

    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "bench.json")
        p = subprocess.run(
            [sys.executable, os.path.join(ROOT, "tools", "bench", "bench-shim"), "--" + args.mode,
             "--rounds", str(ROUNDS), "--plain-steps", "2", "--threads", "1", "--blocks", "2",
             "--seq", "32", "--width", "64", "--hidden", "128", "--json", out_json],
            env=dict(os.environ, WRAPGUARD_BUILD_DIR=args.build_dir),
            capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.stderr.write("FAIL: bench-shim exit status %d\n%s%s\n"
                             % (p.returncode, p.stdout, p.stderr))
            return 1
        out = p.stdout
        check(" " + args.mode in out.splitlines()[0], "first line names the mode: %r" % out[:200])
        check("per-round ratios" not in out and "checks:" not in out,
              "%s ran the budget and selective modes:\n%s" % (args.mode, out))
        for label in ("C++ plain / Python plain", "C++ full / Python reentrant",
                      "C++ full / Python non-reentrant"):
            found = re.search(re.escape(label) + r" +\d+\.\d{3}  \(95% CI \d+\.\d{3}-\d+\.\d{3}; rounds"
                              r"( \d+\.\d{3}){" + str(ROUNDS) + r"}\)  target <= 1\.00: (ok|MISSED)", out)
            check(bool(found) == full, "C++ against Python line %r %s:\n%s"
                  % (label, "missing" if full else "in a plain-only report", out))
        rows = re.findall(r"^  (\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)$", out, re.M)
        check([int(r[0]) for r in rows] == list(range(1, ROUNDS + 1)),
              "one row of 4 round medians per round:\n" + out)
        for label in ("C++ / Python, malloc as it comes",
                      "C++ retaining freed memory / Python as it comes",
                      "C++ / Python, both retaining freed memory"):
            check(re.search(re.escape(label) + r" +\d+\.\d{3}  \(95% CI \d+\.\d{3}-\d+\.\d{3}\)", out),
                  "ratio line %r with its interval:\n%s" % (label, out))
        with open(out_json) as f:
            data = json.load(f)
        results = data.get("results", {})
        expected = PLAINS + (["full", "py"] if full else [])
        check(sorted(results) == sorted(expected), "JSON results: %r" % sorted(results))
        for name in ("full", "py") if full else ():
            runs = results.get(name, [])
            check(len(runs) == ROUNDS, "%s: %d results, want %d" % (name, len(runs), ROUNDS))
        for r in results.get("full", []):
            check(r.get("max_abs_grad_diff") == 0 and r.get("recompute_per_backward") == 1,
                  "full recompute: grads and recomputes %r" % r)
        for name in PLAINS:
            runs = results.get(name, [])
            check(len(runs) == ROUNDS, "%s: %d results, want %d" % (name, len(runs), ROUNDS))
            for r in runs:
                times = r.get("step_times_plain") if name.startswith("cpp") else \
                    r.get("plain", {}).get("step_times")
                check(times is not None and len(times) == 2 and all(t > 0 for t in times),
                      "%s: step times %r" % (name, times))
    if failures:
        sys.stderr.write("%d failure(s)\n" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
