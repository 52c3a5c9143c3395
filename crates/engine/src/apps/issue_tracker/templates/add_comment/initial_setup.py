APP = S.get("app", "issue-tracker")
state = current_state(APP)
issue = by_key(state["issues"], "key", S["issue"])
if issue is None:
    raise KeyError("no issue %r" % S["issue"])
for seed in S.get("seed_comments", []):
    issue.setdefault("comments", []).append(seed)
api_post(APP, "set", state)
print("setup: %s has %d comment(s)" % (S["issue"], len(issue.get("comments", []))))
