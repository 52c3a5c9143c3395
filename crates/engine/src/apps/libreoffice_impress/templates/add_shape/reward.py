# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
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
