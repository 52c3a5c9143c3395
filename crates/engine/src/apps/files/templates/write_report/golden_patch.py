import os
target = os.path.join("/home/user", S["path"])
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target, "w", encoding="utf-8") as fh:
    fh.write(S["content"])
print("golden: wrote %s" % S["path"])
