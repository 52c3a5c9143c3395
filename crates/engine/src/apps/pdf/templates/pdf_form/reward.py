import os

import pymupdf

HOME = "/home/user"


def norm(text):
    return " ".join(str(text).split()).lower()


def open_pdf(rel):
    """(document, problem): a PDF that is missing, encrypted or unreadable is a reason, not a crash."""
    path = os.path.join(HOME, rel)
    if not os.path.exists(path):
        return None, "%s does not exist" % rel
    try:
        doc = pymupdf.open(path)
    except (RuntimeError, ValueError) as err:
        return None, "cannot open %s: %s" % (rel, err)
    if doc.needs_pass:
        return None, "%s is password-protected" % rel
    if not doc.is_pdf:
        return None, "%s is not a PDF" % rel
    return doc, ""


def checked(value):
    return str(value).strip().lower() not in ("", "off", "false", "no", "none", "0")


rubric = Rubric()
doc, problem = open_pdf(S["out"])
found = {}
if doc is not None:
    for page in doc:
        for w in page.widgets():
            found[w.field_name] = (w.field_type, w.field_value)
share = 0.8 / len(S["values"])
hits = 0
for name, want in S["values"].items():
    kind, value = found.get(name, (None, None))
    if kind == pymupdf.PDF_WIDGET_TYPE_CHECKBOX:
        ok = checked(value) == bool(want)
    else:
        ok = value is not None and norm(value) == norm(want)
    hits += ok
    rubric.add("field %s = %r" % (name, want), share, ok, problem or "found %r" % (value,))
headings = [p["heading"] for p in S["pdf"]["pages"]]
kept = doc is not None and doc.page_count == len(headings) and all(
    norm(h) in norm(doc[i].get_text()) for i, h in enumerate(headings))
rubric.add("the rest of the document kept", 0.2, hits > 0 and kept,
           problem or "%d pages; fields filled: %d" % (doc.page_count, hits))
rubric.finish()
