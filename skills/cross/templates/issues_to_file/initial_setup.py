import os
state = current_state("issue-tracker")
for key in S["preset_keys"]:
    issue = by_key(state["issues"], "key", key)
    if issue is None:
        raise KeyError("no issue %r" % key)
    issue["status"] = S["status"]
api_post("issue-tracker", "set", state)
target = os.path.join("/home/user", S["output"])
if os.path.exists(target):
    os.remove(target)
print("setup: %d issue(s) moved to %s" % (len(S["preset_keys"]), S["status"]))
