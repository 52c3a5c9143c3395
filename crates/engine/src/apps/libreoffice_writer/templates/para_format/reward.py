# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
JC = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right",
      "both": "justify", "distribute": "justify"}


def pf_value(para, get):
    value = get(para.paragraph_format)
    if value is not None:
        return value
    for st in style_chain(para.style):
        value = get(st.paragraph_format)
        if value is not None:
            return value
    return None


def alignment(para):
    for el in [para._p.pPr] + [st.element.pPr for st in style_chain(para.style)]:
        if el is None:
            continue
        jc = el.find(W + "jc")
        if jc is not None:
            return JC.get(jc.get(W + "val"), jc.get(W + "val"))
    return "left"


def check(para, prop, want):
    if prop == "alignment":
        got = alignment(para)
        return got == want, got
    if prop == "line_spacing":
        got = pf_value(para, lambda f: f.line_spacing)
        ok = isinstance(got, float) and abs(got - float(want)) < 0.05
        return ok, got
    attr = {"space_after": "space_after", "space_before": "space_before",
            "left_indent_cm": "left_indent", "first_line_indent_cm": "first_line_indent"}[prop]
    got = pf_value(para, lambda f: getattr(f, attr))
    if got is None:
        return False, None
    value = got.cm if prop.endswith("_cm") else got.pt
    tol = 0.05 if prop.endswith("_cm") else 0.6
    return abs(value - float(want)) < tol, round(value, 2)


PROPS = ["alignment", "line_spacing", "space_after", "space_before", "left_indent_cm", "first_line_indent_cm"]
doc = load_doc(S["doc"])
checks = [(t, p) for t in S["targets"] for p in PROPS if t.get(p)]
rubric = Rubric()
for t, prop in checks:
    para = find_paragraph(doc, t["text"]) if doc is not None else None
    ok, got = check(para, prop, t[prop]) if para is not None else (False, "paragraph not found")
    rubric.add("%s: %s = %s" % (t["text"][:40], prop, t[prop]), 0.8 / len(checks), ok, "found %s" % got)
text_kept(rubric, doc)
rubric.finish()
