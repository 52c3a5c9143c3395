import os
import subprocess
from docx import Document
from docx.shared import Pt
from openpyxl import Workbook

HOME = "/home/user"


def launch(args):
    """The paper's launch_gui: open the file on the environment's screen, never wait for it."""
    try:
        subprocess.Popen(args, env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as err:
        print("setup: could not launch %s: %s" % (args[0], err))


book = os.path.join(HOME, S["sheet_file"])
os.makedirs(os.path.dirname(book), exist_ok=True)
wb = Workbook()
ws = wb.active
ws.title = S["sheet"]
for row in S["rows"]:
    ws.append(row)
wb.save(book)
doc_path = os.path.join(HOME, S["doc"])
os.makedirs(os.path.dirname(doc_path), exist_ok=True)
doc = Document()
doc.styles["Normal"].font.name = "Liberation Serif"
doc.styles["Normal"].font.size = Pt(12)
for text in S["paragraphs"]:
    doc.add_paragraph(text)
doc.save(doc_path)
launch(["libreoffice", "--calc", book])
launch(["libreoffice", "--writer", doc_path])
print("setup: wrote %s (%d rows) and %s (%d placeholders)" % (S["sheet_file"], len(S["rows"]), S["doc"], len(S["fills"])))
