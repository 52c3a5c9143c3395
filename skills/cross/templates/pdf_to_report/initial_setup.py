import os
import subprocess
import fitz
from docx import Document
from docx.shared import Pt

HOME = "/home/user"


def launch(args):
    """The paper's launch_gui: open the file on the environment's screen, never wait for it."""
    try:
        subprocess.Popen(args, env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as err:
        print("setup: could not launch %s: %s" % (args[0], err))


pdf_path = os.path.join(HOME, S["pdf"])
os.makedirs(os.path.dirname(pdf_path), exist_ok=True)
pdf = fitz.open()
page = pdf.new_page(width=595, height=842)
y = 72
for i, line in enumerate(S["pdf_lines"]):
    page.insert_text((72, y), line, fontsize=18 if i == 0 else 12, fontname="helv")
    y += 30 if i == 0 else 20
pdf.save(pdf_path)
pdf.close()
doc_path = os.path.join(HOME, S["doc"])
os.makedirs(os.path.dirname(doc_path), exist_ok=True)
doc = Document()
doc.styles["Normal"].font.name = "Liberation Serif"
doc.styles["Normal"].font.size = Pt(12)
for text in S["paragraphs"]:
    doc.add_paragraph(text)
doc.save(doc_path)
launch(["evince", pdf_path])
launch(["libreoffice", "--writer", doc_path])
print("setup: wrote %s (%d lines) and %s (%d placeholders)" % (S["pdf"], len(S["pdf_lines"]), S["doc"], len(S["fills"])))
