import os
from pptx import Presentation

HOME = "/home/user"
path = os.path.join(HOME, S["deck"])
prs = Presentation(path)  # copy-then-modify: the golden state is the initial deck, edited
for slide, spec, title in zip(prs.slides, S["slides"], S["titles"]):
    for para in slide.shapes.title.text_frame.paragraphs:
        for run in para.runs:
            run.text = run.text.replace(spec["title"], title)
prs.save(path)
print("golden: titled %d slide(s)" % min(len(S["slides"]), len(S["titles"])))
