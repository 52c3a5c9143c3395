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


count = 0
for slide in prs.slides:
    for shape in slide.shapes:
        if not shape.has_text_frame:
            continue
        for para in shape.text_frame.paragraphs:
            for run in para.runs:
                if S["old"] in run.text:
                    count += run.text.count(S["old"])
                    run.text = run.text.replace(S["old"], S["new"])
prs.save(path)
print("golden: replaced %d occurrence(s)" % count)
