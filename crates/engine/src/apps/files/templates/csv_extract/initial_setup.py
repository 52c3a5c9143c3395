import os
source = os.path.join("/home/user", S["source"])
os.makedirs(os.path.dirname(source), exist_ok=True)
with open(source, "w", encoding="utf-8") as fh:
    fh.write(S["source_text"])
output = os.path.join("/home/user", S["output"])
if os.path.exists(output):
    os.remove(output)
print("setup: wrote %s" % S["source"])
