import os
import subprocess
from pptx import Presentation

HOME = "/home/user"
outline = os.path.join(HOME, S["outline"])
os.makedirs(os.path.dirname(outline), exist_ok=True)
with open(outline, "w", encoding="utf-8") as fh:
    fh.write("\n".join(S["titles"]) + "\n")
path = os.path.join(HOME, S["deck"])
os.makedirs(os.path.dirname(path), exist_ok=True)
prs = Presentation()
for spec in S["slides"]:
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    body = slide.placeholders[1].text_frame
    body.text = spec["bullets"][0]
    for line in spec["bullets"][1:]:
        body.add_paragraph().text = line
    slide.shapes.title.text = spec["title"]
prs.save(path)
# The paper's launch_gui: open the deck on the environment's screen (the files desktop, with its
# file manager and terminal, is the screen's own), never wait for it.
try:
    subprocess.Popen(["libreoffice", "--impress", path], env={**os.environ, "DISPLAY": ":0"},
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
except OSError as err:
    print("setup: could not launch libreoffice: %s" % err)
print("setup: wrote %s (%d titles) and %s (%d slides)" % (S["outline"], len(S["titles"]), S["deck"], len(S["slides"])))
