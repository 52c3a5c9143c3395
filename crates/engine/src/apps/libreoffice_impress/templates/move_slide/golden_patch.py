import os
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Pt

HOME = "/home/user"
path = os.path.join(HOME, S["deck"])
prs = Presentation(path)  # copy-then-modify: the golden state is the initial deck, edited


def title_of(slide):
    shape = slide.shapes.title
    return shape.text_frame.text if shape is not None and shape.has_text_frame else ""


def slide_titled(title):
    for slide in prs.slides:
        if title_of(slide) == title:
            return slide
    raise SystemExit("golden: no slide titled %r" % title)


slide = slide_titled(S["title"])
ids = prs.slides._sldIdLst
entry = [e for e in ids if prs.part.related_part(e.rId) is slide.part][0]
ids.remove(entry)
ids.insert(int(S["position"]) - 1, entry)
prs.save(path)
print("golden: moved %r to %s" % (S["title"], S["position"]))
