import os
import subprocess
from pptx import Presentation

HOME = "/home/user"
path = os.path.join(HOME, S["deck"])
os.makedirs(os.path.dirname(path), exist_ok=True)
prs = Presentation()
for spec in S["slides"]:
    if spec.get("subtitle") is not None:
        slide = prs.slides.add_slide(prs.slide_layouts[0])
        slide.placeholders[1].text = spec["subtitle"]
    elif spec.get("bullets"):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        body = slide.placeholders[1].text_frame
        body.text = spec["bullets"][0]
        for line in spec["bullets"][1:]:
            body.add_paragraph().text = line
    else:
        slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = spec["title"]
prs.save(path)
# The paper's launch_gui: open the deck on the environment's screen, never wait for it.
try:
    subprocess.Popen(["libreoffice", "--impress", path], env={**os.environ, "DISPLAY": ":0"},
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
except OSError as err:
    print("setup: could not launch libreoffice: %s" % err)
print("setup: wrote %s (%d slides)" % (S["deck"], len(S["slides"])))
