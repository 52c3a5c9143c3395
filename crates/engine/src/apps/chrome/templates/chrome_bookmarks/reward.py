import json

BOOKMARKS = "/home/user/.config/chromium/Default/Bookmarks"
doc = None
problem = ""
try:
    with open(BOOKMARKS, encoding="utf-8") as fh:
        doc = json.load(fh)
except (OSError, ValueError) as err:
    problem = "cannot read Bookmarks: %s" % err


def places():
    """(folder path, node) for every bookmark and folder, paths like bookmark_bar/Work."""
    out = []

    def walk(folder, path):
        for child in folder.get("children", []):
            out.append((path, child))
            if child.get("type") == "folder":
                walk(child, path + "/" + child.get("name", ""))

    for key, root in ((doc or {}).get("roots") or {}).items():
        if isinstance(root, dict):
            walk(root, key)
    return out


ALL = places()


def same_url(a, b):
    return (a or "").strip().rstrip("/") == (b or "").strip().rstrip("/")


def same_name(a, b):
    return " ".join((a or "").split()).lower() == " ".join((b or "").split()).lower()


def urls(url):
    return [(path, n) for path, n in ALL if n.get("type") == "url" and same_url(n.get("url"), url)]


def evaluate(check):
    kind = check["kind"]
    if kind == "bookmark":
        found = [(p, n.get("name")) for p, n in urls(check["url"])]
        ok = any(same_name(p, check["folder"]) and same_name(name, check["name"]) for p, name in found)
        return ok, "%s found at %s" % (check["url"], found or "nowhere")
    if kind == "folder":
        ok = any(n.get("type") == "folder" and same_name(p + "/" + n.get("name", ""), check["folder"]) for p, n in ALL)
        return ok, "folder %s %s" % (check["folder"], "exists" if ok else "missing")
    if kind == "absent":
        # Deleted from a live tree: a missing or empty Bookmarks file is not a deletion.
        found = urls(check["url"])
        if not any(n.get("type") == "url" for _, n in ALL):
            return False, "no bookmarks at all %s" % problem
        return not found, "%s %s" % (check["url"], "still at %s" % [p for p, _ in found] if found else "gone")
    if kind == "present":
        found = urls(check["url"])
        return bool(found), "%s %s" % (check["url"], "kept" if found else "missing")
    return False, "unknown check kind %r" % kind


rubric = Rubric()
goals = [c for c in S["checks"] if not c.get("guard")]
guards = [c for c in S["checks"] if c.get("guard")]
passed = 0
for check in goals:
    ok, detail = evaluate(check)
    passed += ok
    rubric.add(check["name"], 0.8 / len(goals), ok, detail + (" " + problem if problem else ""))
results = [evaluate(c) for c in guards]
rubric.add("other bookmarks kept", 0.2, all(ok for ok, _ in results) and passed > 0, "; ".join(d for _, d in results) + "; goals passed: %d" % passed)
rubric.finish()
