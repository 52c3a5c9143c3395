# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
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
    rubric.add("slide %d title %s" % (n + 1, name), 0.8 / len(checks), ok, "found %s" % seen)
deck_kept(rubric, prs)
rubric.finish()
