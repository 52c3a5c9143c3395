go = api_get("team-chat", "/go")
init, cur = go["initial_state"], go["current_state"]
me = cur.get("currentUser")
channel = by_key(cur["channels"], "name", S["channel"])
cid = channel["id"] if channel else None
emoji_hits = 0
mine = 0
for mid in S["message_ids"]:
    before = by_key(init["messages"].get(cid, []), "id", mid) or {}
    after = by_key(cur["messages"].get(cid, []), "id", mid) or {}
    was = by_key(before.get("reactions"), "emoji", S["emoji"]) or {}
    now = by_key(after.get("reactions"), "emoji", S["emoji"]) or {}
    if now and not was:
        emoji_hits += 1
    if me in (now.get("users") or []) and me not in (was.get("users") or []):
        mine += 1
total = len(S["message_ids"])
rubric = Rubric()
rubric.add(":%s: reaction added" % S["emoji"], 0.6, fraction(emoji_hits, total), "%d/%d message(s) gained the reaction" % (emoji_hits, total))
rubric.add("reaction is by the current user", 0.4, fraction(mine, total), "%d/%d message(s) carry the current user's reaction" % (mine, total))
rubric.finish()
