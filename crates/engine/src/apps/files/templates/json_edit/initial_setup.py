import os
path = os.path.join("/home/user", S["path"])


def put(doc, dotted, value):
    parts = dotted.split(".")
    for part in parts[:-1]:
        doc = doc.setdefault(part, {})
    doc[parts[-1]] = value


doc = {}
if os.path.exists(path):
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
for key, value in list(S.get("preset", {}).items()) + list(S.get("keep", {}).items()):
    put(doc, key, value)
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, "w", encoding="utf-8") as fh:
    json.dump(doc, fh, indent=1)
print("setup: wrote %s" % S["path"])
