"""compare_modes.py SCANNER BUILD ROOT WORKDIR [scanner args...] : scan the
project of BUILD/compile_commands.json three ways and fail unless they agree:

  fast   the default: shared preambles, traversal scope, -j2
  j1     the default at -j1
  plain  --no-preamble --no-traversal-scope (every TU parsed whole and its
         whole AST walked; claims of header code as in the others)

--modes=fast,plain (before the scanner args) runs only those: fast and at
least one other. Each scan's output (stdout and stderr) is kept in WORKDIR/NAME.log,
so a test can check what a scan said (pass --verbose) without a scan more.
Each writes SARIF (with --source-root ROOT) and its facts (--facts-out).
Findings are compared as results.py prints them: fingerprint, place and
message, and every related location (notes, evidence); facts byte for byte.
Prints what was compared, so a test can check it was not nothing."""
import os
import subprocess
import sys

scanner, build, root, work = sys.argv[1:5]
extra = sys.argv[5:]
here = os.path.dirname(os.path.abspath(__file__))
modes = {"fast": ["-j", "2"], "j1": ["-j", "1"],
         "plain": ["-j", "2", "--no-preamble", "--no-traversal-scope"]}
if extra and extra[0].startswith("--modes="):
    wanted = extra.pop(0)[len("--modes="):].split(",")
    unknown = [m for m in wanted if m not in modes]
    if unknown or "fast" not in wanted or len(set(wanted)) < 2:
        sys.exit("compare_modes: --modes takes fast and at least one of j1, plain; got %s"
                 % ",".join(wanted))
    modes = {m: f for m, f in modes.items() if m in wanted}
os.makedirs(work, exist_ok=True)
out = {}
for name, flags in modes.items():
    sarif = os.path.join(work, name + ".sarif")
    facts = os.path.join(work, name + ".facts.json")
    proc = subprocess.run([scanner, "-p", build, "--format=sarif", "--source-root", root,
                           "--quiet", "-o", sarif, "--facts-out", facts] + flags + extra,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(work, name + ".log"), "w") as f:
        f.write(proc.stdout)
    if proc.returncode not in (0, 1):
        sys.exit("compare_modes: %s scan exited with %d:\n%s" % (name, proc.returncode, proc.stdout))
    results = subprocess.run([sys.executable, os.path.join(here, "results.py"), sarif],
                             stdout=subprocess.PIPE, text=True, check=True).stdout
    with open(facts) as f:
        out[name] = (proc.returncode, results, f.read())
failed = False
for name in [m for m in modes if m != "fast"]:
    for i, what in enumerate(("exit status", "findings", "facts")):
        if out[name][i] != out["fast"][i]:
            failed = True
            sys.stderr.write("compare_modes: %s differs between fast and %s:\n--- fast\n%s\n--- %s\n%s\n" %
                             (what, name, out["fast"][i], name, out[name][i]))
if failed:
    sys.exit(1)
rc, results, facts = out["fast"]
findings = sum(1 for l in results.splitlines() if not l.startswith(" "))
notes = sum(1 for l in results.splitlines() if l.startswith("  note:"))
sources = facts.count('"kind"')
print("identical: exit %d, %d findings, %d related locations, facts of %d sources" %
      (rc, findings, notes, sources))
