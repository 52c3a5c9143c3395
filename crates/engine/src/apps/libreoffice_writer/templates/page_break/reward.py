# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def page_breaks(el):
    return [b for b in el.iter(W + "br") if b.get(W + "type") == "page"]


def last_mark_is_break(p):
    """Whether the last text or break inside element p is a page break (the break ends p)."""
    marks = [el for el in p.iter(W + "t", W + "br")]
    return bool(marks) and marks[-1].tag == W + "br" and marks[-1].get(W + "type") == "page"


def first_mark_is_break(p):
    marks = [el for el in p.iter(W + "t", W + "br") if el.tag == W + "br" or (el.text or "").strip()]
    return bool(marks) and marks[0].tag == W + "br" and marks[0].get(W + "type") == "page"


def break_before(doc, para):
    """pageBreakBefore (direct or through the style), a page break before the paragraph's first text,
    or one ending the paragraph before it (Ctrl+Enter in LibreOffice)."""
    if para.paragraph_format.page_break_before:
        return True
    if any(st.paragraph_format.page_break_before for st in style_chain(para.style)):
        return True
    if first_mark_is_break(para._p):
        return True
    prev = para._p.getprevious()
    return prev is not None and prev.tag == W + "p" and last_mark_is_break(prev)


doc = load_doc(S["doc"])
para = find_paragraph(doc, S["text"]) if doc is not None else None
ok = para is not None and break_before(doc, para)
count = len(page_breaks(doc.element.body)) if doc is not None else 0
count += sum(1 for p in (doc.paragraphs if doc is not None else []) if p.paragraph_format.page_break_before)
rubric = Rubric()
rubric.add("page break before %r" % S["text"][:40], 0.8, ok, "paragraph %s" % ("found" if para else "not found"))
rubric.add("exactly one page break", 0.2, ok and count == 1, "%d page break(s)" % count)
rubric.finish()
