import os

import pymupdf

HOME = "/home/user"
src = pymupdf.open(os.path.join(HOME, S["pdf"]["path"]))
# Tolerant of a changed slot (no crash): [first, last], or [last] from page 1, clamped to the
# document; a range past the end exports what exists.
pages = [int(p) for p in S["pages"]] or [1]
last = max(1, min(pages[-1], len(src)))
first = max(1, min(pages[0] if len(pages) > 1 else 1, last))
part = pymupdf.open()
part.insert_pdf(src, from_page=first - 1, to_page=last - 1)
out = os.path.join(HOME, S["out"])
part.save(out + ".tw-tmp")
os.replace(out + ".tw-tmp", out)
print("golden: pages %d-%d -> %s" % (first, last, S["out"]))
