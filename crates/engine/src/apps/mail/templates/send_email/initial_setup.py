state = current_state("mail")
for seed in S.get("seed_messages", []):
    state["messages"].append(seed)
state["messages"] = [m for m in state["messages"] if not (m.get("folder") == "sent" and norm(m.get("subject")) == norm(S["subject"]))]
api_post("mail", "set", state)
import os
for rel, text in S.get("sources", {}).items():
    path = os.path.join("/home/user", rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
print("setup: mailbox ready with %d messages" % len(state["messages"]))
