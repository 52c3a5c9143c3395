import os
try:
    with open(os.path.join("/home/user", S["path"]), encoding="utf-8") as fh:
        lines = [line.strip() for line in fh.read().splitlines()]
except OSError:
    lines = []
done = {norm(l[6:]) for l in lines if l.lower().startswith("- [x] ")}
open_items = {norm(l[6:]) for l in lines if l.startswith("- [ ] ")}
groups = [("ticked", S["check"], done), ("added unticked", S["add"], open_items)]
groups = [g for g in groups if g[1]]
rubric = Rubric()
for label, items, pool in groups:
    hits = len([i for i in items if norm(i) in pool])
    rubric.add("items " + label, 1.0 / len(groups) * 0.8, fraction(hits, len(items)), "%d/%d: %s" % (hits, len(items), json.dumps(items)))
untouched_open = [l for l in S["initial_text"].splitlines() if l.startswith("- [ ] ") and l[6:].strip() not in S["check"]]
kept = len([l for l in untouched_open if norm(l[6:]) in open_items])
progress = len([i for i in S["check"] if norm(i) in done]) + len([i for i in S["add"] if norm(i) in open_items])
rubric.add("other items left as they were", 0.2, kept == len(untouched_open) and progress > 0, "%d/%d other open items kept" % (kept, len(untouched_open)))
rubric.finish()
