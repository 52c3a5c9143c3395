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


def title_runs(slide):
    for shape in slide.shapes:
        if shape.is_placeholder and shape.has_text_frame and "TITLE" in str(shape.placeholder_format.type) \
                and "SUB" not in str(shape.placeholder_format.type):
            return [r for p in shape.text_frame.paragraphs for r in p.runs if r.text.strip()]
    return []


def color_of(run):
    try:
        return str(run.font.color.rgb).upper() if run.font.color.type is not None else None
    except Exception:
        return None


prs = load_prs(S["deck"])
n = int(S["slide"]) - 1
runs = title_runs(prs.slides[n]) if prs is not None and n < len(prs.slides) else []
checks = []
if S.get("bold"):
    checks.append(("bold", bool(runs) and all(r.font.bold is True for r in runs), [r.font.bold for r in runs]))
if S.get("italic"):
    checks.append(("italic", bool(runs) and all(r.font.italic is True for r in runs), [r.font.italic for r in runs]))
if S.get("size"):
    sizes = [r.font.size.pt if r.font.size is not None else None for r in runs]
    checks.append(("size %s pt" % S["size"], bool(runs) and all(s is not None and abs(s - S["size"]) < 0.6 for s in sizes), sizes))
if S.get("color"):
    colors = [color_of(r) for r in runs]
    checks.append(("colour %s" % S["color"], bool(runs) and all(c == S["color"].upper() for c in colors), colors))
rubric = Rubric()
for name, ok, seen in checks:
    rubric.add("slide %d title %s" % (n + 1, name), 1.0 / len(checks), ok, "found %s" % seen)
rubric.finish()
