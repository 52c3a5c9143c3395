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


def effects(slide):
    """Local names of the effects inside the slide's transition(s) (p:transition, also inside
    mc:AlternateContent as LibreOffice writes p14 transitions), plus "transition" when there is
    one. LibreOffice writes an empty <p:transition spd="slow"/> on every slide it saves: a
    transition without an effect element is no transition."""
    out = set()
    for el in slide._element.iter():
        if isinstance(el.tag, str) and el.tag.endswith("}transition"):
            kids = [c.tag.split("}")[-1] for c in el if isinstance(c.tag, str)]
            if kids:
                out.add("transition")
                out.update(kids)
    return out


prs = load_prs(S["deck"])
rubric = Rubric()
k = len(S["targets"])
for n in S["targets"]:
    i = int(n) - 1
    got = effects(prs.slides[i]) if prs is not None and i < len(prs.slides) else set()
    rubric.add("slide %d has a transition" % (i + 1), 0.6 / k, "transition" in got, "found %s" % sorted(got))
    rubric.add("slide %d transition is %s" % (i + 1, S["effect"]), 0.4 / k, S["effect"] in got, "found %s" % sorted(got))
rubric.finish()
