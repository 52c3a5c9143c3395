# The cross desktop templates' setup prelude (skills/cross/setup_prelude.py): joined in front of
# the initial_setup.py of sheet_to_report, pdf_to_report, bookmarks_to_sheet and
# outline_to_slides when a template is looked up (embedded or from an override directory), so a
# rendered setup is still one self-contained script. Document libraries are imported inside the
# helpers that use them: a setup pays only for its own.
import os
import subprocess

HOME = "/home/user"


def home_file(rel):
    """The path of `rel` under the home, its folder made (for a file the script writes)."""
    path = os.path.join(HOME, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def launch(args):
    """The paper's launch_gui: open the program on the environment's screen, never wait for it."""
    try:
        subprocess.Popen(args, env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as err:
        print("setup: could not launch %s: %s" % (args[0], err))


def write_report(rel, paragraphs):
    """A Writer report at `rel`: one paragraph per text, Liberation Serif 12 pt; its path."""
    from docx import Document
    from docx.shared import Pt

    path = home_file(rel)
    doc = Document()
    doc.styles["Normal"].font.name = "Liberation Serif"
    doc.styles["Normal"].font.size = Pt(12)
    for text in paragraphs:
        doc.add_paragraph(text)
    doc.save(path)
    return path
