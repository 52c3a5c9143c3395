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


anchor = find_paragraph(doc, S["anchor"])
new_p = copy.deepcopy(anchor._p)
anchor._p.addnext(new_p)
from docx.text.paragraph import Paragraph  # noqa: E402

para = Paragraph(new_p, anchor._parent)
for run in para.runs[1:]:
    run._r.getparent().remove(run._r)
para.runs[0].text = S["text"]
doc.save(path)
print("golden: inserted a paragraph after %r" % S["anchor"][:30])
