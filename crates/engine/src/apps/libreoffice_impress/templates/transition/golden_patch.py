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


from lxml import etree

NS = "http://schemas.openxmlformats.org/presentationml/2006/main"
for n in S["targets"]:
    sld = prs.slides[int(n) - 1]._element
    trans = etree.SubElement(sld, "{%s}transition" % NS)
    etree.SubElement(trans, "{%s}%s" % (NS, S["effect"]))
    clr = sld.find("{%s}clrMapOvr" % NS)
    (clr if clr is not None else sld.find("{%s}cSld" % NS)).addnext(trans)
prs.save(path)
print("golden: %s transition on %d slide(s)" % (S["effect"], len(S["targets"])))
