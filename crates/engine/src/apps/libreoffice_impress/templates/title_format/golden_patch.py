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


slide = prs.slides[int(S["slide"]) - 1]
for para in slide.shapes.title.text_frame.paragraphs:
    for run in para.runs:
        if S.get("bold"):
            run.font.bold = True
        if S.get("italic"):
            run.font.italic = True
        if S.get("size"):
            run.font.size = Pt(S["size"])
        if S.get("color"):
            run.font.color.rgb = RGBColor.from_string(S["color"])
prs.save(path)
print("golden: formatted the title of slide %s" % S["slide"])
