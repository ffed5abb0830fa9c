"""pty_run.py CMD... : run CMD with its stderr on a pseudo-terminal (stdout
discarded) and print what it wrote there, carriage returns turned into
newlines and the erase-line sequence dropped. Exits with CMD's status."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        data = os.read(master, 4096)
    except OSError:  # EIO once the child has closed the terminal
        break
    if not data:
        break
    out += data
rc = proc.wait()
text = out.decode("utf-8", "replace").replace("\x1b[K", "").replace("\r\n", "\n")
sys.stdout.write(text.replace("\r", "\n"))
sys.exit(rc)
