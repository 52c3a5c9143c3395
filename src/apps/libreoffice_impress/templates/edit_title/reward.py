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
got = titles(prs)
n = int(S["slide"]) - 1
want = [clean(s["title"]) for s in S["slides"]]
hit = len(got) > n and got[n] == clean(S["title"])
rest_ok = len(got) == len(want) and all(g == w for i, (g, w) in enumerate(zip(got, want)) if i != n)
rubric = Rubric()
rubric.add("slide %d title %r" % (n + 1, S["title"]), 0.7, hit, "found %r" % (got[n] if len(got) > n else None))
rubric.add("other slides unchanged", 0.3, hit and rest_ok, "titles %s" % json.dumps(got))
rubric.finish()
