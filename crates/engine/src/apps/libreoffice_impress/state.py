"""State reader of the libreoffice_impress pack (see docs/desktop-apps.md).

Invocation: python3 state.py HOME. Prints one JSON object:
{"presentations": {"<path relative to HOME>": {"slides": [{"index", "layout", "title", "shapes": [{"kind",
"name", "text", "x_cm", "y_cm", "w_cm", "h_cm"}], "notes", "background", "transition"}], "truncated"?: n}
| {"error": "..."}}, "pdfs": {"<path>": {"pages": n, "first_lines": ["...", ...]} | {"error": "..."}}}
Notes are read only where a notes slide exists (reading slide.notes_slide would create one). Slides are
capped at MAX_SLIDES, shapes at MAX_SHAPES per slide, files at MAX_FILES. A document that cannot be read is
recorded as {"error": ...}; any other problem exits non-zero.
"""
import json
import os
import sys
import warnings

from pptx import Presentation
from pptx.util import Emu

MAX_FILES = 40
MAX_SLIDES = 200
MAX_SHAPES = 60
MAX_TEXT = 1000
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
warnings.simplefilter("ignore")


def cm(v):
    return round(Emu(v).cm, 2) if v is not None else None


def kind_of(shape):
    try:
        if shape.is_placeholder:
            return "placeholder:" + str(shape.placeholder_format.type).split(".")[-1].split(" ")[0].lower()
        kind = str(shape.shape_type).split(".")[-1].split(" ")[0].lower()
        if kind == "auto_shape":
            return str(shape.auto_shape_type).split(".")[-1].split(" ")[0].lower()
        return kind
    except Exception:
        return "other"


def shape_of(shape):
    return {
        "kind": kind_of(shape),
        "name": shape.name,
        "text": shape.text_frame.text[:MAX_TEXT] if shape.has_text_frame else None,
        "x_cm": cm(shape.left), "y_cm": cm(shape.top), "w_cm": cm(shape.width), "h_cm": cm(shape.height),
    }


def background(slide):
    clr = slide._element.find(P + "cSld/" + P + "bg/" + P + "bgPr/" + A + "solidFill/" + A + "srgbClr")
    return clr.get("val").upper() if clr is not None else None


def transition(slide):
    for el in slide._element.iter():
        if isinstance(el.tag, str) and el.tag.endswith("}transition"):
            kids = [c.tag.split("}")[-1] for c in el if isinstance(c.tag, str)]
            if kids:  # LibreOffice writes an empty <p:transition spd="slow"/> on every slide
                return kids[0]
    return None


def slide_of(i, slide):
    title = slide.shapes.title
    notes = None
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        notes = slide.notes_slide.notes_text_frame.text[:MAX_TEXT]
    return {
        "index": i + 1,
        "layout": slide.slide_layout.name,
        "title": title.text_frame.text[:MAX_TEXT] if title is not None and title.has_text_frame else None,
        "shapes": [shape_of(s) for s in list(slide.shapes)[:MAX_SHAPES]],
        "notes": notes,
        "background": background(slide),
        "transition": transition(slide),
    }


def deck_of(path):
    try:
        prs = Presentation(path)
    except Exception as err:
        return {"error": "%s: %s" % (type(err).__name__, err)}
    slides = list(prs.slides)
    out = {"slides": [slide_of(i, s) for i, s in enumerate(slides[:MAX_SLIDES])]}
    if len(slides) > MAX_SLIDES:
        out["truncated"] = len(slides)
    return out


def pdf_of(path):
    try:
        import pymupdf  # not `fitz`: that alias prints a deprecation warning on stdout
        with pymupdf.open(path) as pdf:
            firsts = []
            for page in list(pdf)[:MAX_SLIDES]:
                lines = [l.strip() for l in page.get_text().splitlines() if l.strip()]
                firsts.append(lines[0][:200] if lines else "")
            return {"pages": pdf.page_count, "first_lines": firsts}
    except Exception as err:
        return {"error": "%s: %s" % (type(err).__name__, err)}


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: state.py HOME (an existing directory)")
    home = sys.argv[1]
    decks, pdfs = [], []
    for root, dirs, files in os.walk(home):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(root, name), home)
            if name.startswith(".~lock"):
                continue
            if name.endswith(".pptx"):
                decks.append(rel)
            elif name.endswith(".pdf"):
                pdfs.append(rel)
    out = {
        "presentations": {rel: deck_of(os.path.join(home, rel)) for rel in sorted(decks)[:MAX_FILES]},
        "pdfs": {rel: pdf_of(os.path.join(home, rel)) for rel in sorted(pdfs)[:MAX_FILES]},
    }
    json.dump(out, sys.stdout, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
