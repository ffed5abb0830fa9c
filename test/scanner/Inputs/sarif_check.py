"""sarif_check.py VALIDATOR FILE... : run `sarif-multitool validate` on each
FILE and fail if it reports any error. The validator exits 0 even when it
finds errors, so its report is read instead: it writes a SARIF log of its
own, whose results carry the level."""
import json
import os
import subprocess
import sys
import tempfile

validator, files = sys.argv[1], sys.argv[2:]
failed = False
for path in files:
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "validation.sarif")
        proc = subprocess.run([validator, "validate", path, "-o", report,
                               "--log", "ForceOverwrite"],
                              capture_output=True, text=True)
        errors = [line for line in proc.stdout.splitlines() if ": error " in line]
        if os.path.exists(report):
            with open(report) as f:
                log = json.load(f)
            for run in log.get("runs", []):
                for result in run.get("results", []):
                    if result.get("level", "warning") == "error":
                        errors.append("%s: %s" % (result.get("ruleId"),
                                                  json.dumps(result.get("message"))))
        else:
            errors.append("no validation report: " + proc.stdout + proc.stderr)
        if proc.returncode != 0 or errors:
            failed = True
            sys.stderr.write("%s: %d validation error(s)\n" % (path, len(errors)))
            for e in errors:
                sys.stderr.write("  " + e + "\n")
        else:
            print("%s: valid SARIF, 0 errors" % os.path.basename(path))
sys.exit(1 if failed else 0)
