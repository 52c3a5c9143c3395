import os
import re
try:
    with open(os.path.join("/home/user", S["output"]), encoding="utf-8") as fh:
        text = fh.read()
except OSError:
    text = ""
listed = set(re.findall(r"\b%s-\d+\b" % re.escape(S["project"]), text))
expected = set(S["expected_keys"])
hits = len(expected & listed)
extra = len(listed - expected)
summaries = len([s for s in S["expected_summaries"] if norm(s) in norm(text)])
rubric = Rubric()
rubric.add("matching issues listed", 0.6, fraction(hits, len(expected)), "%d/%d keys listed" % (hits, len(expected)))
rubric.add("no other issues listed", 0.2, extra == 0 and hits > 0, "%d unexpected key(s)" % extra)
rubric.add("summaries included", 0.2, fraction(summaries, len(S["expected_summaries"])), "%d/%d summaries" % (summaries, len(S["expected_summaries"])))
rubric.finish()
