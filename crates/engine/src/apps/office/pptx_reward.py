"""pptx helpers shared by the Impress rewards (crates/engine/src/apps/office/pptx_reward.py), inlined by the
pack before each template's reward body: the rendered reward stays one self-contained file."""
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


def deck_kept(rubric, prs):
    """The 0.2 component these rewards end with: the deck still has the setup's slides, in order,
    with their titles (no slide lost, added or retitled). Counted only once some of the task is
    done, so the initial deck still scores 0."""
    want = [clean(s["title"]) for s in S["slides"]]
    got = titles(prs)
    done = sum(w * s for _, w, s, _ in rubric.items) > 0
    rubric.add("the slides and their titles are unchanged", 0.2, done and got == want, "titles %s" % json.dumps(got))
