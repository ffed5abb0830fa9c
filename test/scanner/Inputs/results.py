"""results.py [--root DIR] [--no-fingerprints] [--no-notes] FILE... : print
the findings of scanner reports (SARIF or --format=json) or of clang-tidy's
text output, deduplicated and in the order of their places, so that runs can
be compared with diff:

  FINGERPRINT path:line:col: message
    note: text @ path:line        (SARIF related locations, JSON notes)

clang-tidy's text has no fingerprints and gives absolute paths: --root makes
them relative, and its lines read "path:line:col: message". Notes without a
place of their own are left out of text output (clang-tidy gives them the
warning's location)."""
import json
import os
import re
import sys

args = sys.argv[1:]
root = None
no_fp = False
if args and args[0] == "--root":
    root, args = os.path.abspath(args[1]), args[2:]
if args and args[0] == "--no-fingerprints":
    no_fp, args = True, args[1:]
no_notes = False
if args and args[0] == "--no-notes":
    no_notes, args = True, args[1:]

lines = set()


def rel(p):
    if root and os.path.isabs(p):
        return os.path.relpath(p, root)
    return p


for path in args:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict):  # SARIF
        for run in doc["runs"]:
            for r in run.get("results", []):
                loc = r["locations"][0]["physicalLocation"]
                head = "%s:%d:%d: %s" % (loc["artifactLocation"]["uri"],
                                         loc["region"]["startLine"],
                                         loc["region"]["startColumn"],
                                         r["message"]["text"])
                if not no_fp:
                    head = r["partialFingerprints"]["wrapguard/v1"] + " " + head
                notes = ["  note: %s @ %s:%d" % (
                    n["message"]["text"],
                    n["physicalLocation"]["artifactLocation"]["uri"],
                    n["physicalLocation"]["region"]["startLine"])
                    for n in r.get("relatedLocations", [])]
                lines.add("\n".join([head] + ([] if no_notes else notes)))
    elif isinstance(doc, list):  # --format=json
        for r in doc:
            head = "%s:%d:%d: %s" % (r["file"], r["line"], r["column"], r["message"])
            if not no_fp:
                head = r["fingerprint"] + " " + head
            notes = ["  note: %s @ %s:%d" % (n["message"], n["file"], n["line"])
                     for n in r.get("notes", [])]
            lines.add("\n".join([head] + ([] if no_notes else notes)))
    else:  # clang-tidy's text
        for line in text.splitlines():
            m = re.match(r"^(.*):(\d+):(\d+): warning: (.*) \[[\w.-]+\]$", line)
            if m:
                lines.add("%s:%s:%s: %s" % (rel(m.group(1)), m.group(2),
                                            m.group(3), m.group(4)))


def place(line):
    """Sort key: path, then line and column as numbers; the fingerprint,
    first when shown, does not count."""
    if not no_fp and re.match(r"^[0-9a-f]+ ", line):
        line = line.split(" ", 1)[1]
    m = re.match(r"^(.*?):(\d+):(\d+): (.*)$", line, re.S)
    if not m:
        return (line, 0, 0, "")
    return (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4))


for line in sorted(lines, key=place):
    print(line)
