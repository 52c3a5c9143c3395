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


slide = prs.slides.add_slide(prs.slide_layouts[1])
slide.shapes.title.text = S["title"]
body = slide.placeholders[1].text_frame
body.text = S["bullets"][0]
for line in S["bullets"][1:]:
    body.add_paragraph().text = line
ids = prs.slides._sldIdLst
entry = ids[-1]
ids.remove(entry)
ids.insert(int(S["position"]) - 1, entry)
prs.save(path)
print("golden: added slide %r at %s" % (S["title"], S["position"]))
