"""damage_cache.py DIR: damages the result entries (*.json) in DIR, in file
name order: the first, third, ... are cut to half their size; the second,
fourth, ... keep their size and get another checksum in their header
("wrapguard-cache VERSION CHECKSUM LENGTH"), every digit of it changed, so
that no entry can stay intact by chance."""
import os
import sys

d = sys.argv[1]
entries = sorted(f for f in os.listdir(d) if f.endswith(".json"))
for i, name in enumerate(entries):
    path = os.path.join(d, name)
    with open(path, "r+b") as f:
        data = f.read()
        if i % 2 == 0:
            f.truncate(len(data) // 2)
            continue
        header, rest = data.split(b"\n", 1)
        fields = header.split(b" ")
        fields[2] = bytes(b"1"[0] if c == b"0"[0] else b"0"[0] for c in fields[2])
        f.seek(0)
        f.write(b" ".join(fields) + b"\n" + rest)
