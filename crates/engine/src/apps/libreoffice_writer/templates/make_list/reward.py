# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def num_pr(para):
    """(numId, ilvl) of the paragraph's numbering: its own w:numPr, else its style chain's."""
    for ppr in [para._p.pPr] + [st.element.pPr for st in style_chain(para.style)]:
        if ppr is None:
            continue
        npr = ppr.find(W + "numPr")
        if npr is not None:
            num = npr.find(W + "numId")
            lvl = npr.find(W + "ilvl")
            if num is not None:
                return num.get(W + "val"), (lvl.get(W + "val") if lvl is not None else "0")
    return None, None


def num_format(doc, num_id, ilvl):
    try:
        root = doc.part.numbering_part.element
    except Exception:
        return None
    for num in root.findall(W + "num"):
        if num.get(W + "numId") != num_id:
            continue
        abstract = num.find(W + "abstractNumId").get(W + "val")
        for absn in root.findall(W + "abstractNum"):
            if absn.get(W + "abstractNumId") != abstract:
                continue
            for lvl in absn.findall(W + "lvl"):
                if lvl.get(W + "ilvl") == ilvl:
                    fmt = lvl.find(W + "numFmt")
                    return fmt.get(W + "val") if fmt is not None else None
    return None


doc = load_doc(S["doc"])
want = "bullet" if S["kind"] == "bullet" else "decimal"
listed, right_kind = 0, 0
for text in S["targets"]:
    para = find_paragraph(doc, text) if doc is not None else None
    num_id, ilvl = num_pr(para) if para is not None else (None, None)
    if num_id not in (None, "0"):
        listed += 1
        if num_format(doc, num_id, ilvl) == want:
            right_kind += 1
n = len(S["targets"])
rubric = Rubric()
rubric.add("paragraphs in a list", 0.5, fraction(listed, n), "%d/%d numbered or bulleted" % (listed, n))
rubric.add("list kind %s" % S["kind"], 0.5, fraction(right_kind, n), "%d/%d with format %s" % (right_kind, n, want))
rubric.finish()
