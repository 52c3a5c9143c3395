import os
import subprocess
from docx import Document
from docx.shared import Pt

HOME = "/home/user"
path = os.path.join(HOME, S["doc"])
os.makedirs(os.path.dirname(path), exist_ok=True)
doc = Document()
doc.styles["Normal"].font.name = "Liberation Serif"
doc.styles["Normal"].font.size = Pt(12)
for item in S["paragraphs"]:
    if isinstance(item, str):
        doc.add_paragraph(item)
    else:
        doc.add_paragraph(item["text"], style=item.get("style"))
if S.get("table"):
    rows = S["table"]
    table = doc.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.cell(r, c).text = str(value)
    for text in S.get("after_table", []):
        doc.add_paragraph(text)
doc.save(path)
# The paper's launch_gui: open the document on the environment's screen, never wait for it.
try:
    subprocess.Popen(["libreoffice", "--writer", path], env={**os.environ, "DISPLAY": ":0"},
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
except OSError as err:
    print("setup: could not launch libreoffice: %s" % err)
print("setup: wrote %s" % S["doc"])
