state = current_state("mail")
account = state["account"]
state["messages"].append({
    "id": "m9001", "threadId": "t9001", "folder": "sent",
    "from": {"name": account["name"], "email": account["email"]},
    "to": list(S["to"]), "cc": [], "subject": S["subject"], "body": S["body"],
    "date": "2026-03-05T10:00:00Z", "isRead": True, "isStarred": False, "labels": [], "attachments": [],
})
api_post("mail", "set_current", state)
print("golden: sent %r" % S["subject"])
