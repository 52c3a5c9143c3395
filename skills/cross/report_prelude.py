# The cross report templates' prelude (skills/cross/report_prelude.py): joined in front of the
# golden_patch.py and reward.py of sheet_to_report and pdf_to_report (both fill a Writer report's
# placeholders; only the source application differs), so a rendered script is still one
# self-contained file. No process is started here: reward.py is scanned for that.
import os

HOME = "/home/user"


def fill_report(rel, fills):
    """The golden report: each fill's placeholder replaced by its value, in the initial document
    (copy-then-modify); how many runs changed."""
    from docx import Document

    path = os.path.join(HOME, rel)
    doc = Document(path)
    done = 0
    for fill in fills:
        for para in doc.paragraphs:
            for run in para.runs:
                if fill["placeholder"] in run.text:
                    run.text = run.text.replace(fill["placeholder"], str(fill["value"]))
                    done += 1
    doc.save(path)
    return done


def score_report(rel, paragraphs, fills):
    """The report's reward: 0.8 shared by the placeholders filled with their values, 0.2 for every
    other paragraph unchanged (once one is filled); a missing or unreadable report scores 0."""
    from docx import Document

    try:
        texts = [" ".join(p.text.split()) for p in Document(os.path.join(HOME, rel)).paragraphs]
    except Exception as err:  # a missing or unreadable document scores 0, it is not a crash
        texts = []
        print("reward: cannot read %s: %s" % (rel, err))
    original = [" ".join(p.split()) for p in paragraphs]
    expected = list(original)
    slots_at = []
    for fill in fills:
        at = next(i for i, p in enumerate(original) if fill["placeholder"] in p)
        expected[at] = expected[at].replace(fill["placeholder"], str(fill["value"]))
        slots_at.append(at)
    rubric = Rubric()
    share = 0.8 / len(fills)
    passed = 0
    for fill, at in zip(fills, slots_at):
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
