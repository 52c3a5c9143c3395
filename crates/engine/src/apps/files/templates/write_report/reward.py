import os
try:
    with open(os.path.join("/home/user", S["path"]), encoding="utf-8") as fh:
        text = fh.read()
except OSError:
    text = ""
lines = [l for l in text.splitlines() if l.strip()]
first = norm(lines[0].lstrip("#")) if lines else ""
body = norm(text)
hits = len([p for p in S["must_include"] if norm(p) in body])
rubric = Rubric()
# The title earns credit only with the report's facts: a seed file that already has the heading
# (the noop probe's state) is not the task done.
rubric.add("title line", 0.2, norm(S["title"]) in first and hits > 0, "first line: %r" % first[:80])
rubric.add("required facts", 0.8, fraction(hits, len(S["must_include"])), "%d/%d of %s" % (hits, len(S["must_include"]), json.dumps(S["must_include"])))
rubric.finish()
