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


for t in S["targets"]:
    find_paragraph(doc, t["text"]).style = doc.styles[t["style"]]
doc.save(path)
print("golden: styled %d paragraph(s)" % len(S["targets"]))
