# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def bg_color(slide):
    """The slide's own solid background colour (read from the XML: python-pptx's background.fill adds
    an element when asked)."""
    bg = slide._element.find(P + "cSld/" + P + "bg")
    if bg is None:
        return None
    clr = bg.find(P + "bgPr/" + A + "solidFill/" + A + "srgbClr")
    return clr.get("val").upper() if clr is not None else None


prs = load_prs(S["deck"])
rubric = Rubric()
for n in S["targets"]:
    i = int(n) - 1
    got = bg_color(prs.slides[i]) if prs is not None and i < len(prs.slides) else None
    rubric.add("slide %d background %s" % (i + 1, S["color"]), 0.8 / len(S["targets"]), got == S["color"].upper(),
               "found %s" % got)
deck_kept(rubric, prs)
rubric.finish()
