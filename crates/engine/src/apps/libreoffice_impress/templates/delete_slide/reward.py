# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
prs = load_prs(S["deck"])
got = titles(prs)
want = [clean(s["title"]) for s in S["slides"] if clean(s["title"]) != clean(S["title"])]
gone = prs is not None and clean(S["title"]) not in got
rubric = Rubric()
rubric.add("slide %r deleted" % S["title"], 0.7, gone, "titles %s" % json.dumps(got))
rubric.add("other slides kept in order", 0.3, gone and got == want, "%d slide(s)" % len(got))
rubric.finish()
