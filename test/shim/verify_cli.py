"""verify_cli.py: end-to-end tests of the wrapguard-verify command line.

Usage: verify_cli.py CASE --verify BIN [--call-test BIN] [--scanner BIN]
                     [--make-project PY]

Cases (each a CTest entry, see test/shim/CMakeLists.txt):
  arguments      every numeric option rejects a bad value with a message and
                 exit status 2, never std::terminate (issue 10, defect 3);
                 --sites says the join moved to `wrapguard join`; the modes
                 of --bench that exclude each other say so
  modes          --bench, --bench --selective, --bench --checkpoint-every and
                 --bench --memory-budget-mib on a small model: the JSON
                 fields, grads identical, a plan within its budget, and an
                 impossible budget that names the lowest achievable peak
                 (issue 16)
  odd-names      a trace whose file names hold quotes, backslashes and
                 non-ASCII letters, joined by `wrapguard join` (--scanner)
                 with flagged-site lists in each format; every output line
                 is valid JSON in UTF-8 (item 8)
  scanner-sarif  SARIF and JSON written by the scanner itself, joined by it:
                 the function comes from
                 logicalLocations[].fullyQualifiedName (defect 5)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.parse

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        sys.stderr.write("FAIL: %s\n" % what)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=120, **kw)


def json_lines(out, what):
    """Parses every line of `out` (bytes) as JSON, decoding strictly as UTF-8."""
    try:
        text = out.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        check(False, "%s: output is not valid UTF-8: %s" % (what, e))
        return []
    rows = []
    for line in text.splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError as e:
            check(False, "%s: invalid JSON line %r: %s" % (what, line, e))
    return rows


def expect_usage_error(args, option, value):
    p = run([args.verify, "--bench", option, value])
    err = p.stderr.decode("utf-8", "replace")
    what = "%s %r" % (option, value)
    check(p.returncode == 2, "%s: exit status %d, want 2 (stderr: %s)"
          % (what, p.returncode, err.strip()))
    check(("wrapguard-verify: %s expects an integer" % option) in err and
          ("got '%s'" % value) in err,
          "%s: no message naming the option and the value: %r" % (what, err))


def case_arguments(args):
    # Every kind of bad value on one option, then one bad value on each; each
    # run loads LibTorch, so the cross product would be slow for no gain.
    for value in ["x", "", "12x", "1.5", "-3", "0", "99999999999999999999999"]:
        expect_usage_error(args, "--blocks", value)
    for option in ["--seq", "--width", "--hidden", "--batch", "--threads",
                   "--memory-budget-mib", "--checkpoint-every"]:
        expect_usage_error(args, option, "0")
    expect_usage_error(args, "--memory-budget-mib", "x")
    for option in ["--steps", "--threads"]:
        expect_usage_error(args, option, "3000000000")  # more than an int holds
    expect_usage_error(args, "--steps", "-1")
    for extra, message in [
            (["--bench", "--memory-budget-mib", "5", "--checkpoint-every", "2"],
             "--memory-budget-mib and --checkpoint-every exclude each other"),
            (["--demo", "--selective"], "go with --bench")]:
        p = run([args.verify] + extra)
        err = p.stderr.decode("utf-8", "replace")
        check(p.returncode == 2 and message in err,
              "%s: exit status %d, stderr %r" % (extra, p.returncode, err))
    # The join is the scanner's now (issue 10): say where it went.
    p = run([args.verify, "--sites", "a.sarif", "--trace", "t.json"])
    err = p.stderr.decode("utf-8", "replace")
    check(p.returncode == 2 and "wrapguard join --sites" in err,
          "--sites: exit status %d, stderr %r" % (p.returncode, err))


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def join(args, sites, trace):
    p = run([args.scanner, "join", "--sites", sites, "--trace", trace, "--format=json"])
    check(p.returncode == 0, "--sites %s: exit status %d: %s"
          % (os.path.basename(sites), p.returncode, p.stderr.decode("utf-8", "replace")))
    return json_lines(p.stdout, "--sites " + os.path.basename(sites))


def case_odd_names(args):
    odd = 'odd "quoted" back\\slash ünï.cpp'  # the #line name in call_test.cpp
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, 'dïr "q" \\b')
        os.makedirs(d)
        trace = os.path.join(d, "tråce.json")
        env = dict(os.environ, WRAPGUARD_TRACE=trace)
        p = run([args.call_test, "--gtest_filter=CallHelpers.OddFileNameSiteForChildTrace"],
                env=env)
        check(p.returncode == 0, "traced run failed: %s" % p.stdout.decode("utf-8", "replace"))
        with open(trace, "rb") as f:
            doc = json.loads(f.read().decode("utf-8", errors="strict"))
        site = [s for s in doc["sites"] if s["file"] == odd]
        check(len(site) == 1, "trace lists no site in %r: %r" % (odd, doc))

        uri = urllib.parse.quote(odd)
        inputs = {
            "sites.txt": odd + ":9002\n",
            "sites.json": json.dumps([{"file": odd, "line": 9002,
                                       "function": "call_at_odd_site", "message": "m"}]),
            "sites.sarif": json.dumps({"version": "2.1.0", "runs": [{"results": [{
                "message": {"text": "m"},
                "locations": [{
                    "physicalLocation": {"artifactLocation": {"uri": uri},
                                         "region": {"startLine": 9002}},
                    "logicalLocations": [{"fullyQualifiedName": "call_at_odd_site",
                                          "kind": "function"}]}]}]}]}),
        }
        for name, text in inputs.items():
            path = os.path.join(d, name)
            write(path, text)
            rows = join(args, path, trace)
            check(len(rows) == 1, "%s: %d rows, want 1" % (name, len(rows)))
            for row in rows:
                check(row.get("file") == odd, "%s: file %r" % (name, row.get("file")))
                check(row.get("reached") is True and row.get("calls") == 1 and
                      row.get("empty_calls") == 1, "%s: not joined: %r" % (name, row))
                if name != "sites.txt":
                    check(row.get("function") == "call_at_odd_site",
                          "%s: function %r" % (name, row.get("function")))


def case_scanner_sarif(args):
    with tempfile.TemporaryDirectory() as tmp:
        proj = os.path.join(tmp, "my proj ü")
        p = run([sys.executable, args.make_project, proj])
        check(p.returncode == 0, "make_project failed: %r" % p.stderr)
        # What the shim would record at the two flagged calls of the fixture.
        trace = os.path.join(tmp, "trace.json")
        write(trace, json.dumps({"sites": [
            {"file": os.path.join(proj, "src", "a.cpp"), "line": 5, "function": "use_a",
             "calls": 2, "empty_calls": 2, "wrapped": []},
            {"file": os.path.join(proj, "src", "ünï côde.cpp"), "line": 6,
             "function": "wrap", "calls": 1, "empty_calls": 1, "wrapped": []}]},
            ensure_ascii=False))
        want = {("src/a.cpp", 5): "use_a", ("src/ünï côde.cpp", 6): "wg::wrap"}
        for fmt in ["sarif", "json"]:
            out = os.path.join(tmp, "flagged." + fmt)
            p = run([args.scanner, "-p", os.path.join(proj, "build"), "--format=" + fmt,
                     "--source-root", proj, "-o", out])
            check(p.returncode == 1, "scanner --format=%s: exit status %d, want 1: %s"
                  % (fmt, p.returncode, p.stderr.decode("utf-8", "replace")))
            rows = join(args, out, trace)
            got = {}
            for row in rows:
                rel = os.path.relpath(row["file"], proj) if os.path.isabs(row["file"]) \
                    else row["file"]
                got[(rel, row["line"])] = (row.get("function"), row.get("reached"))
            for key, function in want.items():
                check(got.get(key) == (function, True), "--format=%s: %s:%d: got %r, want %r"
                      % (fmt, key[0], key[1], got.get(key), (function, True)))


# The fields --bench has always written; every mode writes them.
BENCH_FIELDS = ["peak_bytes_plain", "peak_bytes_checkpointed", "activation_bytes_saved",
                "step_seconds_plain", "step_seconds_checkpointed", "wrapped",
                "max_abs_grad_diff", "step_times_plain", "step_times_checkpointed"]
SMALL = ["--bench", "--blocks", "4", "--seq", "128", "--width", "128", "--hidden", "512",
         "--steps", "1", "--json"]


def bench(args, extra, what, status=0):
    p = run([args.verify] + SMALL + extra)
    check(p.returncode == status, "%s: exit status %d, want %d: %s"
          % (what, p.returncode, status, p.stderr.decode("utf-8", "replace")))
    rows = json_lines(p.stdout, what)
    if status != 0:
        return p
    check(len(rows) == 1, "%s: %d JSON lines, want 1" % (what, len(rows)))
    row = rows[0] if rows else {}
    for field in BENCH_FIELDS:
        check(field in row, "%s: no field %s in %r" % (what, field, row))
    check(row.get("max_abs_grad_diff") == 0 and row.get("recompute_per_backward") == 1
          and row.get("passed") is True, "%s: not identical or not passed: %r" % (what, row))
    return row


def case_modes(args):
    full = bench(args, [], "full")
    sel = bench(args, ["--selective"], "--selective")
    check(sel.get("selective") is True and sel.get("policy", "").endswith(" selective"),
          "--selective: %r" % sel)
    check(full.get("activation_bytes_checkpointed", 0) < sel.get("activation_bytes_checkpointed", 0)
          < sel.get("activation_bytes_plain", 0),
          "--selective holds %r, full %r" % (sel.get("activation_bytes_checkpointed"),
                                             full.get("activation_bytes_checkpointed")))
    every = bench(args, ["--checkpoint-every", "2"], "--checkpoint-every")
    check(every.get("policy") == "MODULES(blocks.0,blocks.2)" and every.get("wrapped") == 2,
          "--checkpoint-every 2: %r" % every)

    low, high = full.get("peak_bytes_checkpointed", 0), full.get("peak_bytes_plain", 0)
    mib = ((low + high) // 2) >> 20
    check(mib << 20 >= low, "no whole MiB between the peaks %d and %d" % (low, high))
    plan = bench(args, ["--memory-budget-mib", str(mib)], "--memory-budget-mib")
    budget = mib << 20
    check(plan.get("budget_bytes") == budget, "budget_bytes %r" % plan.get("budget_bytes"))
    check(plan.get("predicted_peak_bytes", budget + 1) <= budget,
          "predicted %r over %d" % (plan.get("predicted_peak_bytes"), budget))
    check(plan.get("peak_bytes_checkpointed", budget * 2) <= budget * 1.05
          and plan.get("within_budget") is True, "measured %r over %d"
          % (plan.get("peak_bytes_checkpointed"), budget))
    detail = plan.get("plan", {})
    check(detail.get("method") in ("exact", "greedy") and
          len(detail.get("modules", [])) + len(detail.get("selective_modules", [])) ==
          plan.get("wrapped"), "plan %r" % detail)

    p = bench(args, ["--memory-budget-mib", str((low >> 20) - 1 or 1)], "impossible budget",
              status=1)
    err = p.stderr.decode("utf-8", "replace")
    check("the lowest achievable peak is" in err and ("(%d bytes)" % low) in err,
          "impossible budget: %r (lowest %d)" % (err, low))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["arguments", "modes", "odd-names", "scanner-sarif"])
    ap.add_argument("--verify", required=True)
    ap.add_argument("--call-test")
    ap.add_argument("--scanner")
    ap.add_argument("--make-project")
    args = ap.parse_args()
    {"arguments": case_arguments, "modes": case_modes, "odd-names": case_odd_names,
     "scanner-sarif": case_scanner_sarif}[args.case](args)
    if failures:
        sys.stderr.write("%d failure(s)\n" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
