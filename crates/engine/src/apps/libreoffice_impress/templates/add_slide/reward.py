# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
prs = load_prs(S["deck"])
got = titles(prs)
want = clean(S["title"])
at = [i for i, t in enumerate(got) if t == want]
slide = prs.slides[at[0]] if at else None
lines = [clean(line) for text in (slide_texts(slide) if slide is not None else []) for line in text.split("\n")]
hits = len([b for b in S["bullets"] if clean(b) in lines])
rubric = Rubric()
rubric.add("a slide titled %r" % S["title"], 0.4, len(at) == 1, "titles %s" % json.dumps(got))
rubric.add("at position %s" % S["position"], 0.2, bool(at) and at[0] == int(S["position"]) - 1, "at %s" % [i + 1 for i in at])
rubric.add("its bullet lines", 0.4, fraction(hits, len(S["bullets"])), "%d/%d lines" % (hits, len(S["bullets"])))
rubric.finish()
