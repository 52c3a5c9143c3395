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
    return None


# Tolerant of the state it finds: a deck without that slide (already deleted, or a title that
# is not there) is saved unchanged, and the reward names what is wrong.
slide = slide_titled(S["title"])
ids = prs.slides._sldIdLst
for entry in list(ids):
    if slide is not None and prs.part.related_part(entry.rId) is slide.part:
        prs.part.drop_rel(entry.rId)
        ids.remove(entry)
prs.save(path)
if slide is None:
    print("golden: no slide titled %r; the deck is unchanged" % S["title"])
else:
    print("golden: deleted slide %r" % S["title"])
