# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
prs = load_prs(S["deck"])
got = titles(prs)
title = clean(S["title"])
pos = int(S["position"]) - 1
placed = len(got) > pos and got[pos] == title
others = [clean(s["title"]) for s in S["slides"] if clean(s["title"]) != title]
rubric = Rubric()
rubric.add("%r is slide %d" % (S["title"], pos + 1), 0.7, placed, "titles %s" % json.dumps(got))
rubric.add("other slides in their order", 0.3, placed and [t for t in got if t != title] == others, "%d slide(s)" % len(got))
rubric.finish()
