import json
import os
import time

BOOKMARKS = "/home/user/.config/chromium/Default/Bookmarks"
NOW = str(int((time.time() + 11644473600) * 1000000))


def walk(folder):
    yield folder
    for child in folder.get("children", []):
        if child.get("type") == "folder":
            yield from walk(child)


def folder_at(path):
    root, *names = path.split("/")
    node = doc["roots"][root]
    for name in names:
        node = next(c for c in node["children"] if c.get("type") == "folder" and c["name"] == name)
    return node


def take(url):
    for folder in [f for r in doc["roots"].values() for f in walk(r)]:
        for child in folder.get("children", []):
            if child.get("type") == "url" and child["url"].rstrip("/") == url.rstrip("/"):
                folder["children"].remove(child)
                return child
    raise SystemExit("golden: no bookmark for %s" % url)


stop_chromium()
with open(BOOKMARKS, encoding="utf-8") as fh:
    doc = json.load(fh)
ids = [int(f["id"]) for r in doc["roots"].values() for f in walk(r)]
ids += [int(c["id"]) for r in doc["roots"].values() for f in walk(r) for c in f.get("children", [])]
next_id = max(ids) + 1
for op in S["ops"]:
    if op["op"] in ("add", "mkdir"):
        item = {"date_added": NOW, "date_last_used": "0", "id": str(next_id), "name": op["name"]}
        next_id += 1
        if op["op"] == "add":
            item.update({"type": "url", "url": op["url"]})
        else:
            item.update({"type": "folder", "children": [], "date_modified": NOW})
        folder_at(op["folder"])["children"].append(item)
    elif op["op"] == "rename":
        hits = [c for r in doc["roots"].values() for f in walk(r) for c in f.get("children", [])
                if c.get("type") == "url" and c["url"].rstrip("/") == op["url"].rstrip("/")]
        if not hits:
            raise SystemExit("golden: no bookmark for %s" % op["url"])
        hits[0]["name"] = op["name"]
    elif op["op"] == "move":
        folder_at(op["folder"])["children"].append(take(op["url"]))
    elif op["op"] == "delete":
        take(op["url"])
doc["checksum"] = ""
with open(BOOKMARKS + ".tw-tmp", "w", encoding="utf-8") as fh:
    json.dump(doc, fh, indent=3)
os.replace(BOOKMARKS + ".tw-tmp", BOOKMARKS)
print("golden: applied %d bookmark operation(s)" % len(S["ops"]))
