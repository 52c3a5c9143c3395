import copy
import os
from docx import Document
from docx.shared import Cm, Pt, RGBColor

HOME = "/home/user"
path = os.path.join(HOME, S["doc"])
doc = Document(path)  # copy-then-modify: the golden state is the initial file, edited


def find_paragraph(doc, text):
    for para in doc.paragraphs:
        if text in para.text:
            return para
    raise SystemExit("golden: no paragraph contains %r" % text)


from docx.enum.section import WD_ORIENT

section = doc.sections[0]
if S.get("paper") == "A4":
    section.page_width, section.page_height = Cm(21.0), Cm(29.7)
if S.get("orientation") == "landscape":
    section.orientation = WD_ORIENT.LANDSCAPE
    w, h = section.page_width, section.page_height
    section.page_width, section.page_height = max(w, h), min(w, h)
for side, value in (S.get("margins_cm") or {}).items():
    setattr(section, side + "_margin", Cm(value))
doc.save(path)
print("golden: page set up")
