import os
for item in S["files"]:
    folder = os.path.join("/home/user", item["to"])
    os.makedirs(folder, exist_ok=True)
    source = os.path.join("/home/user", item["from"], item["name"])
    if os.path.exists(source):
        os.replace(source, os.path.join(folder, item["name"]))
print("golden: moved %d file(s)" % len(S["files"]))
