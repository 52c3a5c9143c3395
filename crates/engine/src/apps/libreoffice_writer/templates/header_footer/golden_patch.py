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


from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

section = doc.sections[0]
if S.get("header_text"):
    section.header.paragraphs[0].text = S["header_text"]
if S.get("footer_text") or S.get("page_number"):
    para = section.footer.paragraphs[0]
    para.text = S.get("footer_text", "")
    if S.get("page_number"):
        if S.get("footer_text"):
            para.add_run(" ")
        para._p.append(parse_xml('<w:fldSimple %s w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple>' % nsdecls("w")))
doc.save(path)
print("golden: header/footer set")
