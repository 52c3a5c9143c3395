import os
from docx import Document

HOME = "/home/user"


def load_doc(rel):
    """The saved document, or None when it is missing or unreadable (scores 0)."""
    try:
        return Document(os.path.join(HOME, rel))
    except Exception:
        return None


def style_chain(style):
    while style is not None:
        yield style
        style = style.base_style


def inherited(run, para, get):
    """A run property: the run's own value, else its character style's, else the paragraph style chain's
    (python-docx answers None for 'inherited')."""
    value = get(run.font)
    if value is not None:
        return value
    for chain in (style_chain(run.style) if run.style is not None else [], style_chain(para.style)):
        for st in chain:
            value = get(st.font)
            if value is not None:
                return value
    return None


def hex_color(font):
    try:
        rgb = font.color.rgb if font.color is not None and font.color.type is not None else None
    except Exception:
        rgb = None
    return str(rgb).upper() if rgb is not None else None


HIGHLIGHT_FILLS = {"FFFF00": "yellow", "00FF00": "green", "00FFFF": "turquoise", "FF00FF": "pink",
                   "0000FF": "blue", "FF0000": "red", "C0C0C0": "gray25", "808080": "gray50"}


def highlight(run):
    """w:highlight, else a character shading fill LibreOffice may export instead."""
    value = run.font.highlight_color
    if value is not None:
        return str(value.name if hasattr(value, "name") else value).lower()
    rpr = run._r.rPr
    if rpr is not None:
        for el in rpr.iterchildren():
            if el.tag.endswith("}shd"):
                fill = (el.get("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}fill") or "").upper()
                return HIGHLIGHT_FILLS.get(fill, fill.lower() or None)
    return None


def run_props(run, para):
    size = inherited(run, para, lambda f: f.size)
    return {
        "bold": bool(inherited(run, para, lambda f: f.bold)),
        "italic": bool(inherited(run, para, lambda f: f.italic)),
        "underline": bool(inherited(run, para, lambda f: f.underline)),
        "strike": bool(inherited(run, para, lambda f: f.strike)),
        "size": round(size.pt, 1) if size is not None else None,
        "font": inherited(run, para, lambda f: f.name),
        "color": hex_color(run.font),
        "highlight": highlight(run),
    }


def all_paragraphs(doc):
    """Body paragraphs, then those of table cells."""
    out = list(doc.paragraphs)
    for table in doc.tables:
        for row in table.rows:
            for cell in row.cells:
                out.extend(cell.paragraphs)
    return out


def find_span(doc, text):
    """(paragraph, [props of each character of the first occurrence of text]) or (None, [])."""
    for para in all_paragraphs(doc):
        chars = []
        for run in para.runs:
            props = run_props(run, para)
            chars.extend((ch, props) for ch in run.text)
        joined = "".join(ch for ch, _ in chars)
        at = joined.find(text)
        if at >= 0:
            return para, [p for _, p in chars[at:at + len(text)]]
    return None, []


def find_paragraph(doc, text):
    """The first body paragraph whose text contains text (whitespace-normalised), else None."""
    want = " ".join(text.split())
    for para in doc.paragraphs:
        if want in " ".join(para.text.split()):
            return para
    return None


def body_text(doc):
    return [" ".join(p.text.split()) for p in doc.paragraphs if p.text.strip()]


W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def num_pr(para):
    """(numId, ilvl) of the paragraph's numbering: its own w:numPr, else its style chain's."""
    for ppr in [para._p.pPr] + [st.element.pPr for st in style_chain(para.style)]:
        if ppr is None:
            continue
        npr = ppr.find(W + "numPr")
        if npr is not None:
            num = npr.find(W + "numId")
            lvl = npr.find(W + "ilvl")
            if num is not None:
                return num.get(W + "val"), (lvl.get(W + "val") if lvl is not None else "0")
    return None, None


def num_format(doc, num_id, ilvl):
    try:
        root = doc.part.numbering_part.element
    except Exception:
        return None
    for num in root.findall(W + "num"):
        if num.get(W + "numId") != num_id:
            continue
        abstract = num.find(W + "abstractNumId").get(W + "val")
        for absn in root.findall(W + "abstractNum"):
            if absn.get(W + "abstractNumId") != abstract:
                continue
            for lvl in absn.findall(W + "lvl"):
                if lvl.get(W + "ilvl") == ilvl:
                    fmt = lvl.find(W + "numFmt")
                    return fmt.get(W + "val") if fmt is not None else None
    return None


doc = load_doc(S["doc"])
want = "bullet" if S["kind"] == "bullet" else "decimal"
listed, right_kind = 0, 0
for text in S["targets"]:
    para = find_paragraph(doc, text) if doc is not None else None
    num_id, ilvl = num_pr(para) if para is not None else (None, None)
    if num_id not in (None, "0"):
        listed += 1
        if num_format(doc, num_id, ilvl) == want:
            right_kind += 1
n = len(S["targets"])
rubric = Rubric()
rubric.add("paragraphs in a list", 0.5, fraction(listed, n), "%d/%d numbered or bulleted" % (listed, n))
rubric.add("list kind %s" % S["kind"], 0.5, fraction(right_kind, n), "%d/%d with format %s" % (right_kind, n, want))
rubric.finish()
