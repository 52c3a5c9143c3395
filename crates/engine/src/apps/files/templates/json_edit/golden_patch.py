import os
path = os.path.join("/home/user", S["path"])
with open(path, encoding="utf-8") as fh:
    doc = json.load(fh)
for dotted, value in S["changes"].items():
    node = doc
    parts = dotted.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
with open(path, "w", encoding="utf-8") as fh:
    json.dump(doc, fh, indent=1)
print("golden: edited %s" % S["path"])
