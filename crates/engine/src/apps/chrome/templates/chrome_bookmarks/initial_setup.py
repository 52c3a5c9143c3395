import json
import os
import time


ROOTS = {"bookmark_bar": "Bookmarks bar", "other": "Other bookmarks", "synced": "Mobile bookmarks"}
NOW = int((time.time() + 11644473600) * 1000000)  # Chromium time: microseconds since 1601-01-01
next_id = [4]


def node(item):
    next_id[0] += 1
    out = {"date_added": str(NOW), "date_last_used": "0", "id": str(next_id[0]), "name": item["name"]}
    if "children" in item:
        out.update({"children": [node(c) for c in item["children"]], "date_modified": str(NOW), "type": "folder"})
    else:
        out.update({"type": "url", "url": item["url"]})
    return out


stop_chromium()
roots = {}
for i, (key, title) in enumerate(ROOTS.items()):
    roots[key] = {"children": [node(c) for c in S["tree"].get(key, [])], "date_added": str(NOW),
                  "date_modified": "0", "id": str(i + 1), "name": title, "type": "folder"}
write_json(os.path.join(DEFAULT, "Bookmarks"), {"checksum": "", "roots": roots, "version": 1})
prefs_path = os.path.join(DEFAULT, "Preferences")
prefs = {}
if os.path.exists(prefs_path):
    with open(prefs_path, encoding="utf-8") as fh:
        prefs = json.load(fh)
prefs.setdefault("bookmark_bar", {})["show_on_all_tabs"] = True
write_json(prefs_path, prefs)
launch(S.get("open", []))
print("setup: wrote %d bookmark(s) and launched chromium" % (next_id[0] - 4))
