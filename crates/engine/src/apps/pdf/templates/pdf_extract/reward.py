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


def read_text(rel):
    """(text, problem) of the output: a .pdf's text (every page), else the plain-text file's."""
    if rel.lower().endswith(".pdf"):
        doc, problem = open_pdf(rel)
        return ("".join(p.get_text() for p in doc), "") if doc is not None else ("", problem)
    try:
        with open(os.path.join(HOME, rel), encoding="utf-8") as fh:
            return fh.read(), ""
    except (OSError, UnicodeDecodeError) as err:
        return "", "cannot read %s: %s" % (rel, err)


rubric = Rubric()
text, problem = read_text(S["out"])
text = norm(text)
page = S["pdf"]["pages"][S["page"] - 1]
wanted = [page["heading"]] + page["lines"]
share = 0.8 / len(wanted)
hits = 0
for line in wanted:
    ok = bool(text) and norm(line) in text
    hits += ok
    rubric.add("has %r" % line[:40], share, ok, problem)
others = [p["heading"] for i, p in enumerate(S["pdf"]["pages"]) if i != S["page"] - 1]
stray = [h for h in others if norm(h) in text]
rubric.add("only page %d" % S["page"], 0.2, hits > 0 and not stray, problem or "other pages' headings: %s" % stray)
rubric.finish()
