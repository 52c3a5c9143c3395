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


def page_breaks(el):
    return [b for b in el.iter(W + "br") if b.get(W + "type") == "page"]


def last_mark_is_break(p):
    """Whether the last text or break inside element p is a page break (the break ends p)."""
    marks = [el for el in p.iter(W + "t", W + "br")]
    return bool(marks) and marks[-1].tag == W + "br" and marks[-1].get(W + "type") == "page"


def first_mark_is_break(p):
    marks = [el for el in p.iter(W + "t", W + "br") if el.tag == W + "br" or (el.text or "").strip()]
    return bool(marks) and marks[0].tag == W + "br" and marks[0].get(W + "type") == "page"


def break_before(doc, para):
    """pageBreakBefore (direct or through the style), a page break before the paragraph's first text,
    or one ending the paragraph before it (Ctrl+Enter in LibreOffice)."""
    if para.paragraph_format.page_break_before:
        return True
    if any(st.paragraph_format.page_break_before for st in style_chain(para.style)):
        return True
    if first_mark_is_break(para._p):
        return True
    prev = para._p.getprevious()
    return prev is not None and prev.tag == W + "p" and last_mark_is_break(prev)


doc = load_doc(S["doc"])
para = find_paragraph(doc, S["text"]) if doc is not None else None
ok = para is not None and break_before(doc, para)
count = len(page_breaks(doc.element.body)) if doc is not None else 0
count += sum(1 for p in (doc.paragraphs if doc is not None else []) if p.paragraph_format.page_break_before)
rubric = Rubric()
rubric.add("page break before %r" % S["text"][:40], 0.8, ok, "paragraph %s" % ("found" if para else "not found"))
rubric.add("exactly one page break", 0.2, ok and count == 1, "%d page break(s)" % count)
rubric.finish()
