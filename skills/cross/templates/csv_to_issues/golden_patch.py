state = current_state("issue-tracker")
project = by_key(state["projects"], "key", S["project"])
numbers = [int(i["key"].split("-")[1]) for i in state["issues"] if i["key"].startswith(S["project"] + "-")]
for n, row in enumerate(S["rows"]):
    number = max(numbers + [0]) + 1 + n
    state["issues"].append({
        "id": "i9%03d" % n, "key": "%s-%d" % (S["project"], number), "projectId": project["id"],
        "type": row["type"], "summary": row["summary"], "description": "", "status": "To Do",
        "priority": row["priority"], "assignee": None, "reporter": state["currentUser"], "sprintId": None,
        "storyPoints": None, "labels": [], "comments": [], "created": "2026-03-05T10:00:00Z", "updated": "2026-03-05T10:00:00Z",
    })
api_post("issue-tracker", "set_current", state)
print("golden: filed %d issue(s)" % len(S["rows"]))
