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


from pptx.enum.shapes import MSO_SHAPE
from pptx.util import Cm

slide = prs.slides[int(S["slide"]) - 1]
box = (Cm(2), Cm(14), Cm(10), Cm(3))
if S["kind"] == "textbox":
    shape = slide.shapes.add_textbox(*box)
else:
    shape = slide.shapes.add_shape(MSO_SHAPE.OVAL if S["kind"] == "ellipse" else MSO_SHAPE.RECTANGLE, *box)
shape.text_frame.text = S["text"]
prs.save(path)
print("golden: added a %s on slide %s" % (S["kind"], S["slide"]))
