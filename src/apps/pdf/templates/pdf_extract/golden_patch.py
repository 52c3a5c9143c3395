import os

import pymupdf

HOME = "/home/user"
doc = pymupdf.open(os.path.join(HOME, S["pdf"]["path"]))
text = doc[S["page"] - 1].get_text()
out = os.path.join(HOME, S["out"])
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write(text)
os.replace(out + ".tw-tmp", out)
print("golden: page %d's text -> %s" % (S["page"], S["out"]))
