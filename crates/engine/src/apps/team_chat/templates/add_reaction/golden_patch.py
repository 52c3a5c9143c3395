state = current_state("team-chat")
channel = by_key(state["channels"], "name", S["channel"])
me = state["currentUser"]
for mid in S["message_ids"]:
    message = by_key(state["messages"][channel["id"]], "id", mid)
    reaction = by_key(message.setdefault("reactions", []), "emoji", S["emoji"])
    if reaction is None:
        message["reactions"].append({"emoji": S["emoji"], "users": [me]})
    elif me not in reaction["users"]:
        reaction["users"].append(me)
api_post("team-chat", "set_current", state)
print("golden: reacted :%s: on %d message(s)" % (S["emoji"], len(S["message_ids"])))
