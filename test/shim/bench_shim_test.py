"""bench_shim_test.py: tools/bench/bench-shim --plain-only end to end.

Usage: bench_shim_test.py --build-dir DIR

On a tiny model, for two rounds: every round runs the four plain-step
processes (C++ and Python, each with malloc as it comes and with freed memory
retained), the report has a row per round and the three C++/Python ratio
lines with their intervals, and --json holds every process's result. Timing
is not judged here: the figures come from the script's own runs in
docs/bench-shim.md. This catches a broken script, not a slow step.
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
    args = ap.parse_args()
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
            sys.stderr.write("FAIL: %s\n" % what)

    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "bench.json")
        p = subprocess.run(
            [sys.executable, os.path.join(ROOT, "tools", "bench", "bench-shim"), "--plain-only",
             "--rounds", str(ROUNDS), "--plain-steps", "2", "--threads", "1", "--blocks", "2",
             "--seq", "32", "--width", "64", "--hidden", "128", "--json", out_json],
            env=dict(os.environ, WRAPGUARD_BUILD_DIR=args.build_dir),
            capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.stderr.write("FAIL: bench-shim exit status %d\n%s%s\n"
                             % (p.returncode, p.stdout, p.stderr))
            return 1
        out = p.stdout
        check(" plain-only" in out.splitlines()[0], "first line names the mode: %r" % out[:200])
        check("per-round ratios" not in out and "checks:" not in out,
              "plain-only ran the checkpointing modes:\n" + out)
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
        check(sorted(results) == sorted(PLAINS), "JSON results: %r" % sorted(results))
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
