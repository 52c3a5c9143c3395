import os
path = os.path.join("/home/user", S["path"])
doc = None
problem = ""
try:
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
except (OSError, ValueError) as err:
    problem = str(err)


def lookup(node, dotted):
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


rubric = Rubric()
share = 0.8 / len(S["changes"])
hits = 0
for key, value in S["changes"].items():
    found = lookup(doc, key) if doc is not None else None
    hits += found == value
    rubric.add("%s = %s" % (key, json.dumps(value)), share, found == value, "found %s %s" % (json.dumps(found), problem))
kept = [k for k, v in S["keep"].items() if doc is not None and lookup(doc, k) == v]
rubric.add("other settings preserved", 0.2, len(kept) == len(S["keep"]) and hits > 0, "%d/%d kept; changes made: %d" % (len(kept), len(S["keep"]), hits))
rubric.finish()
