state = current_state("team-chat")
channel = by_key(state["channels"], "name", S["channel"])
if channel is None:
    raise KeyError("no channel named %r" % S["channel"])
thread = state["messages"].get(channel["id"], [])
for mid in S["message_ids"]:
    message = by_key(thread, "id", mid)
    if message is None:
        raise KeyError("message %r not in #%s" % (mid, S["channel"]))
    message["reactions"] = [r for r in message.get("reactions", []) if r.get("emoji") != S["emoji"]]
api_post("team-chat", "set", state)
print("setup: %d message(s) without :%s:" % (len(S["message_ids"]), S["emoji"]))
