import json
import os

PREFS = "/home/user/.config/chromium/Default/Preferences"
prefs = None
problem = ""
try:
    with open(PREFS, encoding="utf-8") as fh:
        prefs = json.load(fh)
except (OSError, ValueError) as err:
    problem = "cannot read Preferences: %s" % err


def lookup(dotted):
    node = prefs
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def same(found, wanted):
    """Numbers by value, URLs with or without a trailing slash, lists element-wise."""
    if isinstance(wanted, list):
        return isinstance(found, list) and len(found) == len(wanted) and all(same(f, w) for f, w in zip(found, wanted))
    if isinstance(wanted, bool) or isinstance(found, bool):
        return found is wanted
    if isinstance(wanted, (int, float)):
        return isinstance(found, (int, float)) and float(found) == float(wanted)
    if isinstance(wanted, str) and isinstance(found, str):
        a, b = found.strip(), wanted.strip()
        if "://" in b or b.startswith("/"):
            return a.rstrip("/") == b.rstrip("/")
        return a.lower() == b.lower()
    return found == wanted


rubric = Rubric()
share = 0.8 / len(S["changes"])
hits = 0
for key, value in S["changes"].items():
    found = lookup(key) if prefs is not None else None
    ok = same(found, value)
    hits += ok
    rubric.add("%s = %s" % (key, json.dumps(value)), share, ok, "found %s %s" % (json.dumps(found), problem))
kept = [k for k, v in S["keep"].items() if prefs is not None and same(lookup(k), v)]
rubric.add("other preferences preserved", 0.2, len(kept) == len(S["keep"]) and hits > 0, "%d/%d kept; changes made: %d" % (len(kept), len(S["keep"]), hits))
rubric.finish()
