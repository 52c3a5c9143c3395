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


from docx.enum.text import WD_COLOR_INDEX


def isolate(para, text):
    """Splits the paragraph's runs so that `text` is covered by runs of its own; returns those runs."""
    pieces, bounds = [], set()
    for run in para.runs:
        rpr = run._r.rPr
        bounds.add(len(pieces))
        pieces.extend((ch, rpr) for ch in run.text)
    joined = "".join(ch for ch, _ in pieces)
    at = joined.find(text)
    if at < 0:
        raise SystemExit("golden: %r not found" % text)
    cuts = sorted(bounds | {0, at, at + len(text), len(pieces)})
    for run in list(para.runs):
        run._r.getparent().remove(run._r)
    target = []
    for start, end in zip(cuts, cuts[1:]):
        if start == end:
            continue
        seg = "".join(ch for ch, _ in pieces[start:end])
        run = para.add_run(seg)
        if pieces[start][1] is not None:
            run._r.insert(0, copy.deepcopy(pieces[start][1]))
        if start >= at and end <= at + len(text):
            target.append(run)
    return target


for t in S["targets"]:
    para = find_paragraph(doc, t["text"])
    for run in isolate(para, t["text"]):
        if t.get("bold"):
            run.font.bold = True
        if t.get("italic"):
            run.font.italic = True
        if t.get("underline"):
            run.font.underline = True
        if t.get("strike"):
            run.font.strike = True
        if t.get("size"):
            run.font.size = Pt(t["size"])
        if t.get("font"):
            run.font.name = t["font"]
        if t.get("color"):
            run.font.color.rgb = RGBColor.from_string(t["color"])
        if t.get("highlight"):
            run.font.highlight_color = getattr(WD_COLOR_INDEX, t["highlight"].upper())
doc.save(path)
print("golden: formatted %d span(s)" % len(S["targets"]))
