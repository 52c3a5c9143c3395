import os

import pymupdf

HOME = "/home/user"
first, last = S["pages"]
src = pymupdf.open(os.path.join(HOME, S["pdf"]["path"]))
part = pymupdf.open()
part.insert_pdf(src, from_page=first - 1, to_page=last - 1)
out = os.path.join(HOME, S["out"])
part.save(out + ".tw-tmp")
os.replace(out + ".tw-tmp", out)
print("golden: pages %d-%d -> %s" % (first, last, S["out"]))
