import os

import pymupdf

HOME = "/home/user"
doc = pymupdf.open(os.path.join(HOME, S["pdf"]["path"]))
out = os.path.join(HOME, S["out"])
os.makedirs(os.path.dirname(out), exist_ok=True)
if out.endswith(".pdf"):
    # Copy-then-modify: the setup's document with only the page kept.
    doc.select([S["page"] - 1])
    doc.save(out + ".tw-tmp", garbage=3, deflate=True)
else:
    with open(out + ".tw-tmp", "w", encoding="utf-8") as fh:
        fh.write(doc[S["page"] - 1].get_text())
doc.close()
os.replace(out + ".tw-tmp", out)
print("golden: page %d's text -> %s" % (S["page"], S["out"]))
