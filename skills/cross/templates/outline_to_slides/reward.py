import os
from pptx import Presentation

HOME = "/home/user"


def title_of(slide):
    shape = slide.shapes.title
    return " ".join(shape.text_frame.text.split()) if shape is not None and shape.has_text_frame else ""


def body_of(slide):
    """Every text but the title's (LibreOffice saves the body placeholder without python-pptx's idx)."""
    title = slide.shapes.title
    out = []
    for shape in slide.shapes:
        if title is not None and shape.shape_id == title.shape_id or not shape.has_text_frame:
            continue
        out.extend(" ".join(p.text.split()) for p in shape.text_frame.paragraphs if p.text.strip())
    return out


slides = []
try:
    slides = list(Presentation(os.path.join(HOME, S["deck"])).slides)
except Exception as err:  # a missing or unreadable deck scores 0, it is not a crash
    print("reward: cannot read %s: %s" % (S["deck"], err))
rubric = Rubric()
n = len(S["titles"])
progress = 0
for i, want in enumerate(S["titles"]):
    got = title_of(slides[i]) if i < len(slides) else None
    progress += got == want
    rubric.add("slide %d titled %r" % (i + 1, want), 0.8 / n, got == want, "reads %r" % got)
bodies = [body_of(s) for s in slides]
kept = len(slides) == len(S["slides"]) and bodies == [spec["bullets"] for spec in S["slides"]]
rubric.add("slide count and bodies unchanged", 0.2, progress > 0 and kept,
           "%d slide(s), %d expected" % (len(slides), len(S["slides"])))
rubric.finish()
