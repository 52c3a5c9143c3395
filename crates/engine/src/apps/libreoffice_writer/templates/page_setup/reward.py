# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
doc = load_doc(S["doc"])
section = doc.sections[0] if doc is not None and doc.sections else None
checks = []
if section is not None:
    w, h = section.page_width.cm, section.page_height.cm
else:
    w = h = 0.0
if S.get("orientation") == "landscape":
    checks.append(("landscape", section is not None and w > h, "%.2f x %.2f cm" % (w, h)))
if S.get("paper") == "A4":
    dims = sorted([w, h])
    checks.append(("A4 paper", abs(dims[0] - 21.0) < 0.1 and abs(dims[1] - 29.7) < 0.1, "%.2f x %.2f cm" % (w, h)))
for side, value in sorted((S.get("margins_cm") or {}).items()):
    got = getattr(section, side + "_margin", None) if section is not None else None
    got = got.cm if got is not None else None
    checks.append(("%s margin %.2f cm" % (side, value), got is not None and abs(got - value) < 0.05, "found %s" % got))
rubric = Rubric()
for name, ok, seen in checks:
    rubric.add(name, 0.8 / len(checks), ok, seen)
text_kept(rubric, doc)
rubric.finish()
