state = current_state("team-chat")
channel = by_key(state["channels"], "name", S["channel"])
if channel is None:
    raise KeyError("no channel named %r" % S["channel"])
thread = state["messages"].setdefault(channel["id"], [])
for i, seed in enumerate(S.get("seed_messages", [])):
    thread.append({
        "id": seed["id"], "userId": seed["user"], "text": seed["text"],
        "ts": "%d.000100" % (1772600000 + 60 * i), "threadTs": None, "replyCount": 0,
        "edited": False, "reactions": [], "attachments": [],
    })
if by_key(thread, "id", S["parent_id"]) is None:
    raise KeyError("parent message %r not in #%s" % (S["parent_id"], S["channel"]))
api_post("team-chat", "set", state)
print("setup: parent %s ready in #%s" % (S["parent_id"], S["channel"]))
