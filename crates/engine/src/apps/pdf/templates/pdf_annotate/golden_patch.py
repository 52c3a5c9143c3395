import os

import pymupdf

HOME = "/home/user"
src = os.path.join(HOME, S["pdf"]["path"])
out = os.path.join(HOME, S["out"])
# Copy-then-modify: the document the setup wrote, one annotation added.
doc = pymupdf.open(src)
page = doc[S["page"] - 1]
hits = page.search_for(S["phrase"])
if not hits:
    raise SystemExit("golden: %r is not on page %d" % (S["phrase"], S["page"]))
if S["kind"] == "highlight":
    page.add_highlight_annot(hits[0])
else:
    annot = page.add_text_annot(pymupdf.Point(hits[0].x1 + 4, hits[0].y0), S["note"])
    annot.update()
doc.save(out + ".tw-tmp", garbage=3, deflate=True)
doc.close()
os.replace(out + ".tw-tmp", out)
print("golden: %s on page %d -> %s" % (S["kind"], S["page"], S["out"]))
