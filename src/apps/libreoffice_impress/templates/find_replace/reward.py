import os
from pptx import Presentation

HOME = "/home/user"


def load_prs(rel):
    """The saved deck, or None when it is missing or unreadable (scores 0)."""
    try:
        return Presentation(os.path.join(HOME, rel))
    except Exception:
        return None


def clean(text):
    return " ".join(str(text or "").split())


def title_of(slide):
    """The slide's title placeholder text; LibreOffice keeps titles as title placeholders (type title or
    ctrTitle)."""
    for shape in slide.shapes:
        if shape.is_placeholder and shape.has_text_frame:
            kind = str(shape.placeholder_format.type)
            if "TITLE" in kind and "SUB" not in kind:
                return clean(shape.text_frame.text)
    return ""


def titles(prs):
    return [title_of(s) for s in prs.slides] if prs is not None else []


def slide_texts(slide):
    """Every text of the slide's shapes (text frames and table cells), one entry per shape."""
    out = []
    for shape in slide.shapes:
        if shape.has_text_frame:
            out.append(shape.text_frame.text)
        if getattr(shape, "has_table", False) and shape.has_table:
            out.extend(cell.text for row in shape.table.rows for cell in row.cells)
    return out


def notes_text(slide):
    """Speaker notes WITHOUT creating a notes slide (touching slide.notes_slide creates one)."""
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    return clean(frame.text) if frame is not None else ""


prs = load_prs(S["deck"])
texts = [t for slide in (prs.slides if prs is not None else []) for t in slide_texts(slide)]
old_left = sum(t.count(S["old"]) for t in texts)
new_seen = sum(t.count(S["new"]) for t in texts)
expected = int(S["expected_count"])
rubric = Rubric()
rubric.add("%d x %r present" % (expected, S["new"]), 0.5,
           fraction(new_seen, expected) if new_seen <= expected else 0.0, "%d found" % new_seen)
rubric.add("no %r left" % S["old"], 0.3, new_seen > 0 and old_left == 0, "%d left" % old_left)
rubric.add("slide count unchanged", 0.2, new_seen > 0 and len(prs.slides) == len(S["slides"]),
           "%d slide(s)" % (len(prs.slides) if prs is not None else 0))
rubric.finish()
