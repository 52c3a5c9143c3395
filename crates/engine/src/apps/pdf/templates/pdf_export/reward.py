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


rubric = Rubric()
first, last = S["pages"]
doc, problem = open_pdf(S["out"])
want = [p["heading"] for p in S["pdf"]["pages"][first - 1:last]]
count = doc.page_count if doc is not None else 0
rubric.add("%d page(s)" % len(want), 0.3, count == len(want), problem or "%d pages" % count)
share = 0.7 / len(want)
for i, heading in enumerate(want):
    ok = doc is not None and i < count and norm(heading) in norm(doc[i].get_text())
    rubric.add("page %d is %r" % (i + 1, heading), share, ok, problem)
rubric.finish()
