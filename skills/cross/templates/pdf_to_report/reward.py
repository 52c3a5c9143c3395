import os
from docx import Document

HOME = "/home/user"
try:
    texts = [" ".join(p.text.split()) for p in Document(os.path.join(HOME, S["doc"])).paragraphs]
except Exception as err:  # a missing or unreadable document scores 0, it is not a crash
    texts = []
    print("reward: cannot read %s: %s" % (S["doc"], err))
original = [" ".join(p.split()) for p in S["paragraphs"]]
expected = list(original)
slots_at = []
for fill in S["fills"]:
    at = next(i for i, p in enumerate(original) if fill["placeholder"] in p)
    expected[at] = expected[at].replace(fill["placeholder"], str(fill["value"]))
    slots_at.append(at)
rubric = Rubric()
share = 0.8 / len(S["fills"])
passed = 0
for fill, at in zip(S["fills"], slots_at):
    got = texts[at] if at < len(texts) else None
    ok = got == expected[at]
    passed += ok
    rubric.add("%s filled with %s" % (fill["placeholder"], fill["value"]), share, ok,
               "paragraph %d reads %r" % (at + 1, (got or "")[:80]))
others = [i for i in range(len(original)) if i not in slots_at]
kept = len(texts) == len(original) and all(texts[i] == original[i] for i in others)
rubric.add("other paragraphs unchanged", 0.2, passed > 0 and kept,
           "%d paragraph(s), %d expected" % (len(texts), len(original)))
rubric.finish()
