from pptx import Presentation

outline = home_file(S["outline"])
with open(outline, "w", encoding="utf-8") as fh:
    fh.write("\n".join(S["titles"]) + "\n")
path = home_file(S["deck"])
prs = Presentation()
for spec in S["slides"]:
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    body = slide.placeholders[1].text_frame
    body.text = spec["bullets"][0]
    for line in spec["bullets"][1:]:
        body.add_paragraph().text = line
    slide.shapes.title.text = spec["title"]
prs.save(path)
# The files desktop (file manager and terminal) is the screen's own: only the deck is launched.
launch(["libreoffice", "--impress", path])
print("setup: wrote %s (%d titles) and %s (%d slides)" % (S["outline"], len(S["titles"]), S["deck"], len(S["slides"])))
