# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
PROPS = ["bold", "italic", "underline", "strike", "size", "font", "color", "highlight"]
doc = load_doc(S["doc"])
checks = [(t, p) for t in S["targets"] for p in PROPS if t.get(p)]
rubric = Rubric()
for t, prop in checks:
    want = t[prop]
    _, chars = find_span(doc, t["text"]) if doc is not None else (None, [])
    if not chars:
        ok, seen = False, "text not found"
    else:
        values = [c[prop] for c in chars]
        if prop == "size":
            ok = all(v is not None and abs(v - float(want)) < 0.6 for v in values)
        elif prop in ("font", "color", "highlight"):
            ok = all(v is not None and str(v).lower() == str(want).lower() for v in values)
        else:
            ok = all(values)
        seen = sorted({str(v) for v in values})
    rubric.add("%s: %s = %s" % (t["text"][:40], prop, want), 0.8 / len(checks), ok, "found %s" % seen)
text_kept(rubric, doc)
rubric.finish()
