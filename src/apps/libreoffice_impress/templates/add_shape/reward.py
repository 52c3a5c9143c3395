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


from pptx.enum.shapes import MSO_SHAPE, MSO_SHAPE_TYPE


def unfilled(shape):
    """No fill of its own: Impress exports a text box as a rect with a:noFill and no txBox flag."""
    sppr = shape._element.spPr
    return sppr is not None and any(c.tag.endswith("}noFill") for c in sppr)


def kind_of(shape):
    try:
        if shape.shape_type == MSO_SHAPE_TYPE.TEXT_BOX:
            return "textbox"
        if shape.shape_type == MSO_SHAPE_TYPE.AUTO_SHAPE:
            if shape.auto_shape_type == MSO_SHAPE.RECTANGLE and unfilled(shape):
                return "textbox"
            return {MSO_SHAPE.RECTANGLE: "rectangle", MSO_SHAPE.OVAL: "ellipse"}.get(shape.auto_shape_type, "other")
    except Exception:
        pass
    return "other"


prs = load_prs(S["deck"])
n = int(S["slide"]) - 1
slide = prs.slides[n] if prs is not None and n < len(prs.slides) else None
found = [s for s in (slide.shapes if slide is not None else [])
         if not s.is_placeholder and s.has_text_frame and clean(s.text_frame.text) == clean(S["text"])]
kinds = [kind_of(s) for s in found]
rubric = Rubric()
rubric.add("a shape reading %r on slide %d" % (S["text"], n + 1), 0.6, bool(found), "%d found" % len(found))
rubric.add("it is a %s" % S["kind"], 0.4, S["kind"] in kinds, "kinds %s" % kinds)
rubric.finish()
