# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
prs = load_prs(S["deck"])
texts = [t for slide in (prs.slides if prs is not None else []) for t in slide_texts(slide)]
old_left = sum(t.count(S["old"]) for t in texts)
new_seen = sum(t.count(S["new"]) for t in texts)
expected = int(S["expected_count"])
rubric = Rubric()
rubric.add("%d x %r present" % (expected, S["new"]), 0.5,
           fraction(new_seen, expected) if new_seen <= expected else 0.0, "%d found" % new_seen)
rubric.add("no %r left" % S["old"], 0.3, new_seen > 0 and old_left == 0, "%d left" % old_left)
rubric.add("slide count unchanged", 0.2, new_seen > 0 and len(prs.slides) == len(S["slides"]),
           "%d slide(s)" % (len(prs.slides) if prs is not None else 0))
rubric.finish()
