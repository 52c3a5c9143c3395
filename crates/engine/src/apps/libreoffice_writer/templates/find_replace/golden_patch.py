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


count = 0
for para in doc.paragraphs:
    if S["old"] in para.text:
        count += para.text.count(S["old"])
        text = para.text.replace(S["old"], S["new"])
        for run in para.runs[1:]:
            run._r.getparent().remove(run._r)
        para.runs[0].text = text
doc.save(path)
print("golden: replaced %d occurrence(s)" % count)
