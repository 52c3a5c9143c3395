# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
prs = load_prs(S["deck"])
rubric = Rubric()
for item in S["notes"]:
    n = int(item["slide"]) - 1
    got = notes_text(prs.slides[n]) if prs is not None and n < len(prs.slides) else ""
    rubric.add("notes of slide %d" % (n + 1), 0.8 / len(S["notes"]), norm(item["text"]) in norm(got) and bool(got),
               "found %r" % got[:80])
deck_kept(rubric, prs)
rubric.finish()
