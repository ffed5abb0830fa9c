"""budget_counts.py FILE.sarif : the functions analysed and skipped over
budget in a SARIF log, summed over its invocations, then each budget
notification as "uri:line:column message", sorted, so that a full scan and
a merge of its shards can be compared with diff."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    log = json.load(f)
analysed = skipped = invocations = 0
notes = []
for run in log["runs"]:
    for inv in run.get("invocations", []):
        invocations += 1
        props = inv.get("properties", {})
        analysed += props.get("functionsAnalysed", 0)
        skipped += props.get("functionsSkipped", 0)
        for n in inv.get("toolExecutionNotifications", []):
            if n.get("descriptor", {}).get("id") != "budget-exceeded":
                continue
            phys = n["locations"][0]["physicalLocation"]
            notes.append("%s:%d:%d %s" % (phys["artifactLocation"]["uri"],
                                          phys["region"]["startLine"],
                                          phys["region"]["startColumn"],
                                          n["message"]["text"]))
print("analysed %d, skipped %d in %d invocation(s)" % (analysed, skipped, invocations))
for line in sorted(notes):
    print(line)
