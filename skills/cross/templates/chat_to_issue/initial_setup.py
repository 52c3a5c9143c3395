chat = current_state("team-chat")
channel = by_key(chat["channels"], "name", S["channel"])
if channel is None:
    raise KeyError("no channel named %r" % S["channel"])
chat["messages"].setdefault(channel["id"], []).append({
    "id": "MS0901", "userId": S["message"]["user"], "text": S["message"]["text"], "ts": "1772800000.000100",
    "threadTs": None, "replyCount": 0, "edited": False, "reactions": [], "attachments": [],
})
api_post("team-chat", "set", chat)
tracker = current_state("issue-tracker")
issue = by_key(tracker["issues"], "key", S["issue"])
if issue is None:
    raise KeyError("no issue %r" % S["issue"])
issue.update(S.get("preset", {}))
api_post("issue-tracker", "set", tracker)
print("setup: request posted in #%s; %s prepared" % (S["channel"], S["issue"]))
