state = current_state("team-chat")
channel = by_key(state["channels"], "name", S["channel"])
state["messages"].setdefault(channel["id"], []).append({
    "id": "MG0001", "userId": state["currentUser"], "text": S["text"], "ts": "1772900000.000100",
    "threadTs": None, "replyCount": 0, "edited": False, "reactions": [], "attachments": [],
})
api_post("team-chat", "set_current", state)
print("golden: posted in #%s" % S["channel"])
