# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
doc = load_doc(S["doc"])
texts = [p.text for p in all_paragraphs(doc)] if doc is not None else []
old_left = sum(t.count(S["old"]) for t in texts)
new_seen = sum(t.count(S["new"]) for t in texts)
expected = int(S["expected_count"])
original = [" ".join((p if isinstance(p, str) else p["text"]).split()) for p in S["paragraphs"]]
restored = [" ".join(t.replace(S["new"], S["old"]).split()) for t in texts if t.strip()]
rubric = Rubric()
rubric.add("%d x %r present" % (expected, S["new"]), 0.4, fraction(min(new_seen, expected), expected)
           if new_seen <= expected else 0.0, "%d found" % new_seen)
rubric.add("no %r left" % S["old"], 0.4, new_seen > 0 and old_left == 0, "%d left" % old_left)
rubric.add("other text unchanged", 0.2, new_seen > 0 and restored == original,
           "%d paragraph(s) differ" % len([1 for a, b in zip(restored, original) if a != b]))
rubric.finish()
