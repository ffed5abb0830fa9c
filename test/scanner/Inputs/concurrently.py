"""concurrently.py CMD1 ::: CMD2 [::: CMD3 ...] : start every command at once,
wait for all, and fail unless each exited with 0 or 1 (the scanner's clean
and findings statuses), printing the output of any that did not."""
import subprocess
import sys

commands, current = [], []
for arg in sys.argv[1:]:
    if arg == ":::":
        commands.append(current)
        current = []
    else:
        current.append(arg)
commands.append(current)
procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
         for c in commands]
failed = False
for c, p in zip(commands, procs):
    out = p.communicate()[0]
    if p.returncode not in (0, 1):
        failed = True
        sys.stderr.write("concurrently: %s exited with %d:\n%s\n" % (" ".join(c), p.returncode, out))
sys.exit(1 if failed else 0)
