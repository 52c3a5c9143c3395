# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
doc = load_doc(S["doc"])
texts = body_text(doc) if doc is not None else []
want = " ".join(S["text"].split())
anchor = " ".join(S["anchor"].split())
at = [i for i, t in enumerate(texts) if t == want]
anchor_at = [i for i, t in enumerate(texts) if anchor in t]
original = [" ".join((p if isinstance(p, str) else p["text"]).split()) for p in S["paragraphs"]]
rest = [t for t in texts if t != want]
rubric = Rubric()
rubric.add("new paragraph present", 0.5, len(at) == 1, "%d paragraph(s) read %r" % (len(at), want[:40]))
rubric.add("right after the anchor paragraph", 0.3, bool(at) and bool(anchor_at) and at[0] == anchor_at[0] + 1,
           "new at %s, anchor at %s" % (at, anchor_at))
rubric.add("other paragraphs unchanged", 0.2, bool(at) and rest == original, "%d other paragraph(s)" % len(rest))
rubric.finish()
