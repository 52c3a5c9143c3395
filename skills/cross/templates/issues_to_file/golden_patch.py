import os
state = current_state("issue-tracker")
lines = ["# %s issues in %s" % (S["status"], S["project"]), ""]
for key in S["expected_keys"]:
    issue = by_key(state["issues"], "key", key)
    lines.append("- %s: %s" % (key, issue["summary"]))
target = os.path.join("/home/user", S["output"])
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target, "w", encoding="utf-8") as fh:
    fh.write("\n".join(lines) + "\n")
print("golden: wrote %s" % S["output"])
