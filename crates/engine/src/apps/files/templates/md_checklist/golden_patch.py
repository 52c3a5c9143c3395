import os
path = os.path.join("/home/user", S["path"])
with open(path, encoding="utf-8") as fh:
    lines = fh.read().splitlines()
out = []
for line in lines:
    if line.startswith("- [ ] ") and line[6:].strip() in S["check"]:
        line = "- [x] " + line[6:]
    out.append(line)
out.extend("- [ ] " + item for item in S["add"])
with open(path, "w", encoding="utf-8") as fh:
    fh.write("\n".join(out) + "\n")
print("golden: updated %s" % S["path"])
