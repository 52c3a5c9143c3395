go = api_get("issue-tracker", "/go")
init, cur = go["initial_state"], go["current_state"]
project = by_key(cur["projects"], "key", S["project"]) or {}
old = {i.get("id") for i in init["issues"]}
new = [i for i in cur["issues"] if i.get("id") not in old and i.get("projectId") == project.get("id")]
rubric = Rubric()
share = 1.0 / len(S["rows"])
for row in S["rows"]:
    match = [i for i in new if norm(i.get("summary")) == norm(row["summary"])]
    issue = match[0] if match else {}
    score = 0.5 * bool(match) + 0.25 * (issue.get("type") == row["type"]) + 0.25 * (issue.get("priority") == row["priority"])
    rubric.add("issue: " + row["summary"], share, score, "found=%s type=%s priority=%s" % (bool(match), issue.get("type"), issue.get("priority")))
rubric.finish()
