"""expect_rc.py N CMD... : run CMD, pass its output through, and fail unless
it exits with status N (lit's `not` only tells zero from non-zero)."""
import subprocess
import sys

want = int(sys.argv[1])
args = sys.argv[2:]
if args and args[0] == "--":
    args = args[1:]
rc = subprocess.call(args)
if rc != want:
    sys.stderr.write("expect_rc: %s exited with %d, expected %d\n" % (args[0], rc, want))
    sys.exit(1)
