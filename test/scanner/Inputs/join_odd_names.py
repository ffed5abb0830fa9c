"""join_odd_names.py SCANNER DIR: `wrapguard join` with odd file names.

Writes, in a folder under DIR whose own name has a quote, a backslash, a
space and non-ASCII letters, a WRAPGUARD_TRACE file and the same flagged
sites as a text list, the scanner's JSON and SARIF (percent-encoded URIs,
relative and file://, upper- and lower-case hex, a literal '%'). Runs
`SCANNER join` on each (no shell: the names reach it as they are) and
prints its output, then, for the JSON outputs, each row's file as Python's
ascii() writes it and whether every line is strict UTF-8 JSON.
"""
import json
import os
import subprocess
import sys
import urllib.parse

scanner, base = sys.argv[1], sys.argv[2]
d = os.path.join(base, 'dïr "q" \\b')
os.makedirs(d, exist_ok=True)

quoted = 'odd "quoted" back\\slash ünï.cpp'  # as a #line name may spell it
percent = "100% sure/a b.cpp"
cjk = "日本/ü.cpp"
trace = {"sites": [
    {"file": "/src/" + quoted, "line": 10, "function": "q", "calls": 1,
     "empty_calls": 1, "wrapped": []},
    {"file": "/src/" + percent, "line": 20, "function": "p", "calls": 2,
     "empty_calls": 0, "wrapped": [{"type": "Blöck \"1\""}]},
    {"file": "/src/" + cjk, "line": 30, "function": "c", "calls": 3,
     "empty_calls": 3, "wrapped": []},
    {"file": "/src/bad%zz.cpp", "line": 40, "function": "b", "calls": 4,
     "empty_calls": 0, "wrapped": []}]}


def result(uri, line, function):
    return {"ruleId": "r", "message": {"text": "m"}, "locations": [{
        "physicalLocation": {"artifactLocation": {"uri": uri},
                             "region": {"startLine": line}},
        "logicalLocations": [{"fullyQualifiedName": function, "kind": "function"}]}]}


sarif = {"version": "2.1.0", "runs": [{"results": [
    result(urllib.parse.quote(quoted), 10, "ns::q"),
    result("file://" + urllib.parse.quote("/src/" + percent), 20, "ns::p"),
    result("file://" + urllib.parse.quote("/src/" + cjk).lower(), 30, "ns::c"),
    result("file:///src/bad%zz.cpp", 40, "ns::b")]}]}
records = [{"file": quoted, "line": 10, "function": "ns::q"},
           {"file": percent, "line": 20, "function": "ns::p"},
           {"file": "/src/" + cjk, "line": 30, "function": "ns::c"}]
inputs = {
    "tråce.json": json.dumps(trace, ensure_ascii=False).encode("utf-8"),
    "sites.txt": ("%s:10\n%s:20:1\n%s:30\n" % (quoted, percent, cjk)).encode("utf-8")
                 + b"/src/\xff.cpp:50\n",
    "sites.json": json.dumps(records).encode("utf-8"),
    "sites.sarif": json.dumps(sarif).encode("utf-8"),
}
for name, data in inputs.items():
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

for name in ["sites.txt", "sites.json", "sites.sarif"]:
    for fmt in ["text", "json"]:
        p = subprocess.run([scanner, "join", "--sites", os.path.join(d, name),
                            "--trace", os.path.join(d, "tråce.json"),
                            "--format=" + fmt], capture_output=True)
        print("== %s %s: exit %d" % (name, fmt, p.returncode))
        sys.stdout.flush()
        sys.stdout.buffer.write(p.stdout + p.stderr)
        if fmt != "json":
            continue
        try:
            rows = [json.loads(line) for line in
                    p.stdout.decode("utf-8", errors="strict").splitlines()]
            for row in rows:
                print("row", ascii(row["file"]), ascii(row["function"]),
                      row["reached"], ascii(row["wrapped_types"]))
            print("strict UTF-8 JSON: %d rows" % len(rows))
        except ValueError as e:
            print("INVALID:", e)
