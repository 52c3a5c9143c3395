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


from docx.enum.text import WD_ALIGN_PARAGRAPH

ALIGN = {"left": WD_ALIGN_PARAGRAPH.LEFT, "center": WD_ALIGN_PARAGRAPH.CENTER,
         "right": WD_ALIGN_PARAGRAPH.RIGHT, "justify": WD_ALIGN_PARAGRAPH.JUSTIFY}
for t in S["targets"]:
    fmt = find_paragraph(doc, t["text"]).paragraph_format
    if t.get("alignment"):
        fmt.alignment = ALIGN[t["alignment"]]
    if t.get("line_spacing"):
        fmt.line_spacing = float(t["line_spacing"])
    if t.get("space_after"):
        fmt.space_after = Pt(t["space_after"])
    if t.get("space_before"):
        fmt.space_before = Pt(t["space_before"])
    if t.get("left_indent_cm"):
        fmt.left_indent = Cm(t["left_indent_cm"])
    if t.get("first_line_indent_cm"):
        fmt.first_line_indent = Cm(t["first_line_indent_cm"])
doc.save(path)
print("golden: formatted %d paragraph(s)" % len(S["targets"]))
