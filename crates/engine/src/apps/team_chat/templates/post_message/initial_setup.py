state = current_state("team-chat")
channel = by_key(state["channels"], "name", S["channel"])
if channel is None:
    raise KeyError("no channel named %r" % S["channel"])
thread = state["messages"].setdefault(channel["id"], [])
for i, seed in enumerate(S.get("seed_messages", [])):
    thread.append({
        "id": "MS%04d" % (i + 1), "userId": seed["user"], "text": seed["text"],
        "ts": "%d.000100" % (1772600000 + 60 * i), "threadTs": None, "replyCount": 0,
        "edited": False, "reactions": [], "attachments": [],
    })
api_post("team-chat", "set", state)
import os
for rel, text in S.get("sources", {}).items():
    path = os.path.join("/home/user", rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
print("setup: #%s has %d messages" % (S["channel"], len(thread)))
