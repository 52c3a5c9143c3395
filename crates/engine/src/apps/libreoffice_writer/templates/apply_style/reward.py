# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
def key(name):
    return "".join(str(name or "").lower().split())


doc = load_doc(S["doc"])
rubric = Rubric()
for t in S["targets"]:
    para = find_paragraph(doc, t["text"]) if doc is not None else None
    got = para.style.name if para is not None and para.style is not None else None
    rubric.add("%s: style %s" % (t["text"][:40], t["style"]), 0.8 / len(S["targets"]),
               key(got) == key(t["style"]), "found %s" % got)
text_kept(rubric, doc)
rubric.finish()
