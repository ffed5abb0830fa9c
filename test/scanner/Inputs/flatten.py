"""flatten.py FILE : print a JSON document as "path = value" lines, one per
leaf, in document order, so FileCheck can match structure line by line."""
import json
import sys


def walk(value, path):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, "%s.%s" % (path, k) if path else k)
    elif isinstance(value, list):
        if not value:
            yield path, []
        for i, v in enumerate(value):
            yield from walk(v, "%s[%d]" % (path, i))
    else:
        yield path, value


with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
for path, value in walk(doc, ""):
    print("%s = %s" % (path, json.dumps(value, ensure_ascii=False)))
