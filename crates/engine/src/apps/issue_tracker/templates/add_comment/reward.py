APP = S.get("app", "issue-tracker")
go = api_get(APP, "/go")
init, cur = go["initial_state"], go["current_state"]
before = by_key(init["issues"], "key", S["issue"]) or {}
after = by_key(cur["issues"], "key", S["issue"]) or {}
old = {c.get("id") for c in before.get("comments") or []}
new = [c for c in after.get("comments") or [] if c.get("id") not in old and c.get("author") == cur.get("currentUser")]
rubric = Rubric()
rubric.add("comment added to " + S["issue"], 0.3, len(new) >= 1, "%d new comment(s) by the current user" % len(new))
best = 0
for comment in new:
    body = norm(comment.get("body"))
    best = max(best, len([p for p in S["must_include"] if norm(p) in body]))
rubric.add("comment content", 0.7, fraction(best, len(S["must_include"])), "mentions %d/%d of %s" % (best, len(S["must_include"]), json.dumps(S["must_include"])))
rubric.finish()
