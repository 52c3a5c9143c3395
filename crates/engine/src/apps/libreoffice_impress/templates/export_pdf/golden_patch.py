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


import pymupdf as fitz  # the `fitz` alias prints a deprecation warning on stdout

# A stand-in for File > Export as PDF: one page per slide, each carrying the slide's texts.
out = os.path.join(HOME, S["pdf"])
os.makedirs(os.path.dirname(out), exist_ok=True)
pdf = fitz.open()
for slide in prs.slides:
    page = pdf.new_page(width=720, height=540)
    y = 60
    for shape in slide.shapes:
        if shape.has_text_frame:
            for line in shape.text_frame.text.split("\n"):
                page.insert_text((40, y), line, fontsize=18)
                y += 28
pdf.save(out)
print("golden: wrote %s (%d pages)" % (S["pdf"], len(prs.slides)))
