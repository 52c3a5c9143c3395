import os
for item in S["files"]:
    folder = os.path.join("/home/user", item["from"])
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, item["name"]), "w", encoding="utf-8") as fh:
        fh.write(item["content"])
    target = os.path.join("/home/user", item["to"], item["name"])
    if os.path.exists(target):
        os.remove(target)
print("setup: %d file(s) to sort" % len(S["files"]))
