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


rows = S["rows"]
table = doc.add_table(rows=len(rows), cols=len(rows[0]))
table.style = "Table Grid"
for r, row in enumerate(rows):
    for c, value in enumerate(row):
        table.cell(r, c).text = str(value)
doc.save(path)
print("golden: inserted a %dx%d table" % (len(rows), len(rows[0])))
