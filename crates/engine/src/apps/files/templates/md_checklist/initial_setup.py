import os
path = os.path.join("/home/user", S["path"])
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, "w", encoding="utf-8") as fh:
    fh.write(S["initial_text"])
print("setup: wrote %s" % S["path"])
