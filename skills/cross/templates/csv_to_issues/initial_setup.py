import os
path = os.path.join("/home/user", S["csv_path"])
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, "w", encoding="utf-8") as fh:
    fh.write(S["csv_text"])
state = current_state("issue-tracker")
if by_key(state["projects"], "key", S["project"]) is None:
    raise KeyError("no project %r" % S["project"])
wanted = {norm(r["summary"]) for r in S["rows"]}
state["issues"] = [i for i in state["issues"] if norm(i.get("summary")) not in wanted]
api_post("issue-tracker", "set", state)
print("setup: %s written, %d rows to file" % (S["csv_path"], len(S["rows"])))
