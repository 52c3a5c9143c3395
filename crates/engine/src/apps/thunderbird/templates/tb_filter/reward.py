import os
import re
import urllib.parse

HOME = "/home/user"
RULES = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders/msgFilterRules.dat")
want = S["filter"]


def parse(path):
    """msgFilterRules.dat as [{name, enabled, type, actions[(action, value)], condition}]."""
    filters = []
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return filters
    for line in lines:
        m = re.match(r'^(\w+)="(.*)"$', line.strip())
        if not m:
            continue
        key, value = m.group(1), m.group(2).replace('\\"', '"')
        if key == "name":
            filters.append({"name": value, "enabled": "yes", "actions": [], "condition": ""})
        elif filters and key == "action":
            filters[-1]["actions"].append([value, ""])
        elif filters and key == "actionValue" and filters[-1]["actions"]:
            filters[-1]["actions"][-1][1] = value
        elif filters:
            filters[-1][key] = value
    return filters


def terms(condition):
    """The (field, op, value) terms of a condition, lower case, URIs unquoted."""
    found = re.findall(r"\(([^,]+),([^,]+),([^)]*)\)", condition or "")
    return sorted((a.strip().lower(), b.strip().lower(), c.strip().strip('"').lower()) for a, b, c in found)


def norm_action(pair):
    return (pair[0].strip().lower(), urllib.parse.unquote(pair[1] or "").strip().lower())


def score(f):
    return (f["name"].strip().lower() == want["name"].lower(), terms(f["condition"]) == terms(want["condition"]),
            sorted(map(norm_action, f["actions"])) == sorted(map(norm_action, want["actions"])))


existing = {e["name"] for e in S.get("existing", [])}
candidates = [f for f in parse(RULES) if f["name"] not in existing or f["name"] == want["name"]]
rubric = Rubric()
best = max(candidates, key=lambda f: sum(score(f)), default=None)
if best is None:
    rubric.add("a new message filter", 1.0, False, "no new filter in %s" % RULES)
else:
    named, cond, acts = score(best)
    rubric.add("filter named %r" % want["name"], 0.2, named, "name %r" % best["name"])
    rubric.add("condition %s" % want["condition"], 0.4, cond, "condition %r" % best["condition"])
    rubric.add("actions %s" % want["actions"], 0.3, acts, "actions %r" % best["actions"])
    rubric.add("enabled", 0.1, best.get("enabled") == "yes" and (cond or acts), "enabled=%s" % best.get("enabled"))
rubric.finish()
