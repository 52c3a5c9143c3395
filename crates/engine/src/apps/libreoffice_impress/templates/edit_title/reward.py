# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
prs = load_prs(S["deck"])
got = titles(prs)
n = int(S["slide"]) - 1
want = [clean(s["title"]) for s in S["slides"]]
hit = len(got) > n and got[n] == clean(S["title"])
rest_ok = len(got) == len(want) and all(g == w for i, (g, w) in enumerate(zip(got, want)) if i != n)
rubric = Rubric()
rubric.add("slide %d title %r" % (n + 1, S["title"]), 0.7, hit, "found %r" % (got[n] if len(got) > n else None))
rubric.add("other slides unchanged", 0.3, hit and rest_ok, "titles %s" % json.dumps(got))
rubric.finish()
