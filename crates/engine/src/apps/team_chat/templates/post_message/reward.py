go = api_get("team-chat", "/go")
init, cur = go["initial_state"], go["current_state"]
channel = by_key(cur["channels"], "name", S["channel"])
cid = channel["id"] if channel else None
before = {m.get("id") for m in init["messages"].get(cid, [])}
new = [
    m for m in cur["messages"].get(cid, [])
    if m.get("id") not in before and m.get("userId") == cur.get("currentUser") and not m.get("threadTs")
]
rubric = Rubric()
rubric.add("message posted in #" + S["channel"], 0.3, len(new) >= 1, "%d new top-level message(s) by the current user" % len(new))
best = 0
for message in new:
    text = norm(message.get("text"))
    best = max(best, len([p for p in S["must_include"] if norm(p) in text]))
rubric.add(
    "message content",
    0.7,
    fraction(best, len(S["must_include"])),
    "best new message mentions %d/%d of %s" % (best, len(S["must_include"]), json.dumps(S["must_include"])),
)
rubric.finish()
