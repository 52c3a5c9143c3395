go = api_get("issue-tracker", "/go")
before = by_key(go["initial_state"]["issues"], "key", S["issue"]) or {}
after = by_key(go["current_state"]["issues"], "key", S["issue"]) or {}
rubric = Rubric()
share = 1.0 / len(S["changes"])
for field, value in S["changes"].items():
    met = after.get(field) == value and before.get(field) != value
    rubric.add("%s %s = %s" % (S["issue"], field, json.dumps(value)), share, met, "was %s, now %s" % (json.dumps(before.get(field)), json.dumps(after.get(field))))
rubric.finish()
