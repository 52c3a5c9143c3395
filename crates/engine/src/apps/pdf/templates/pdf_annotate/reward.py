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


KIND = {"highlight": "Highlight", "note": "Text"}
rubric = Rubric()
doc, problem = open_pdf(S["out"])
annots, target = [], None
if doc is not None and doc.page_count >= S["page"]:
    page = doc[S["page"] - 1]
    annots = list(page.annots())
    found = page.search_for(S["phrase"])
    target = found[0] if found else None
want = KIND[S["kind"]]
mine = [a for a in annots if a.type[1] == want]
rubric.add("a %s annotation on page %d" % (want, S["page"]), 0.4, bool(mine),
           problem or "annotations there: %s" % [a.type[1] for a in annots])
if S["kind"] == "highlight":
    near = [a for a in mine if target is not None and a.rect.intersects(target)]
    rubric.add("it covers %r" % S["phrase"], 0.4, bool(near), problem or "phrase at %s" % (target,))
else:
    said = [a for a in mine if norm(S["note"]) in norm(a.info.get("content", ""))]
    rubric.add("its text is %r" % S["note"], 0.4, bool(said),
               problem or "contents: %s" % [a.info.get("content", "") for a in mine])
headings = [p["heading"] for p in S["pdf"]["pages"]]
kept = doc is not None and doc.page_count == len(headings) and all(
    norm(h) in norm(doc[i].get_text()) for i, h in enumerate(headings))
rubric.add("the document's pages kept", 0.2, bool(mine) and kept, problem)
rubric.finish()
