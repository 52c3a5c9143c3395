# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
doc = load_doc(S["doc"])
texts = body_text(doc) if doc is not None else []
gone = [t for t in S["texts"] if doc is not None and not any(" ".join(t.split()) in x for x in texts)]
original = [" ".join((p if isinstance(p, str) else p["text"]).split()) for p in S["paragraphs"]]
keep = [t for t in original if not any(" ".join(d.split()) in t for d in S["texts"])]
rubric = Rubric()
rubric.add("paragraphs removed", 0.7, fraction(len(gone), len(S["texts"])), "%d/%d gone" % (len(gone), len(S["texts"])))
rubric.add("other paragraphs kept, in order", 0.3, bool(gone) and texts == keep, "%d paragraph(s) left" % len(texts))
rubric.finish()
