# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
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
