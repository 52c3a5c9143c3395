state = current_state("team-chat")
channel = by_key(state["channels"], "name", S["channel"])
thread = state["messages"][channel["id"]]
parent = by_key(thread, "id", S["parent_id"])
thread.append({
    "id": "MG0002", "userId": state["currentUser"], "text": S["text"], "ts": "1772900000.000200",
    "threadTs": parent["ts"], "replyCount": 0, "edited": False, "reactions": [], "attachments": [],
})
parent["replyCount"] = int(parent.get("replyCount") or 0) + 1
api_post("team-chat", "set_current", state)
print("golden: replied to %s" % S["parent_id"])
