import os
for rel, text in S.get("sources", {}).items():
    path = os.path.join("/home/user", rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
target = os.path.join("/home/user", S["path"])
if os.path.exists(target):
    os.remove(target)
print("setup: %d source file(s)" % len(S.get("sources", {})))
