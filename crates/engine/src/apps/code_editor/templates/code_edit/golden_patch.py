import os

HOME = "/home/user"
# Copy-then-modify: every edit is applied to the file the setup wrote, nothing is rewritten whole.
changed = set()
for edit in S["edits"]:
    path = os.path.join(HOME, edit["path"])
    text = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    if edit.get("old"):
        if edit["old"] not in text:
            raise SystemExit("golden: %r not found in %s" % (edit["old"], edit["path"]))
        text = text.replace(edit["old"], edit["new"])
    else:
        text = text + edit["new"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(path + ".tw-tmp", path)
    changed.add(edit["path"])
print("golden: edited %s" % ", ".join(sorted(changed)))
