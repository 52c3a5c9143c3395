# The pdf pack's setup prelude (crates/engine/src/apps/pdf/setup_prelude.py): joined in front of every pdf
# template's initial_setup.py at compile time, after skills/_common/desktop.py (HOME, stop_app,
# start_app), so a rendered setup is still one script.
import os

import pymupdf

def stop_evince():
    """Evince holds the document it shows: stop this home's viewer before rewriting the file."""
    stop_app("evince")


def make_pdf(spec, path):
    """The document of the slots: one page per entry (a heading and lines), metadata, form fields."""
    doc = pymupdf.open()
    for page_spec in spec["pages"]:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), page_spec["heading"], fontsize=18, fontname="helv")
        y = 130
        for line in page_spec["lines"]:
            page.insert_text((72, y), line, fontsize=11, fontname="helv")
            y += 20
    for field in spec.get("fields", []):
        page = doc[field.get("page", 1) - 1]
        x, y = 72, field["y"]
        page.insert_text((x, y + 14), field["label"], fontsize=11, fontname="helv")
        w = pymupdf.Widget()
        w.field_name = field["name"]
        w.field_label = field["label"]
        w.rect = pymupdf.Rect(x + 160, y, x + 420, y + 20)
        if field.get("kind") == "checkbox":
            w.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
            w.rect = pymupdf.Rect(x + 160, y + 2, x + 176, y + 18)
            w.field_value = False
        else:
            w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
            w.field_value = field.get("value", "")
            w.text_fontsize = 11
        page.add_widget(w)
    if spec.get("fields"):
        # The form's default resources: without /DR poppler (Evince) crashes as soon as a typed
        # field value is committed, so no form could be filled through the screen.
        cat = doc.pdf_catalog()
        doc.xref_set_key(cat, "AcroForm/DR", "<< /Font << /Helv << /Type /Font /Subtype /Type1 "
                         "/BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >>")
        doc.xref_set_key(cat, "AcroForm/DA", "(/Helv 0 Tf 0 g)")
    meta = {"author": "", "subject": "", "keywords": "", "creator": "tuplewright", "producer": "PyMuPDF"}
    meta.update(spec.get("metadata", {}))
    doc.set_metadata(meta)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    doc.save(path + ".tw-tmp", garbage=3, deflate=True)
    doc.close()
    os.replace(path + ".tw-tmp", path)



def remove_outputs():
    """Removes the files the task will write (slot `remove`), so a stale one never scores."""
    for rel in S.get("remove", []):
        if os.path.exists(os.path.join(HOME, rel)):
            os.remove(os.path.join(HOME, rel))


def open_in_evince(path):
    """Starts Evince on the environment's screen with `path` open (the paper's way: DISPLAY=:0)."""
    start_app(["evince", path])
