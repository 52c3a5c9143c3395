go = api_get("team-chat", "/go")
init, cur = go["initial_state"], go["current_state"]
channel = by_key(cur["channels"], "name", S["channel"])
cid = channel["id"] if channel else None
parent_before = by_key(init["messages"].get(cid, []), "id", S["parent_id"]) or {}
parent_after = by_key(cur["messages"].get(cid, []), "id", S["parent_id"]) or {}
before = {m.get("id") for m in init["messages"].get(cid, [])}
replies = [
    m for m in cur["messages"].get(cid, [])
    if m.get("id") not in before and m.get("userId") == cur.get("currentUser")
    and parent_after.get("ts") is not None and m.get("threadTs") == parent_after.get("ts")
]
rubric = Rubric()
rubric.add("reply in the thread of " + S["parent_id"], 0.4, len(replies) >= 1, "%d new reply(ies) by the current user" % len(replies))
best = 0
for message in replies:
    text = norm(message.get("text"))
    best = max(best, len([p for p in S["must_include"] if norm(p) in text]))
rubric.add("reply content", 0.4, fraction(best, len(S["must_include"])), "mentions %d/%d required items" % (best, len(S["must_include"])))
count_ok = int(parent_after.get("replyCount") or 0) == int(parent_before.get("replyCount") or 0) + len(replies) and len(replies) >= 1
rubric.add("parent reply count updated", 0.2, count_ok, "replyCount %s -> %s" % (parent_before.get("replyCount"), parent_after.get("replyCount")))
rubric.finish()
