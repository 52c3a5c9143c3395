"""State reader of the libreoffice_writer pack (see docs/desktop-apps.md).

Invocation: python3 state.py HOME. Prints one JSON object:
{"documents": {"<path relative to HOME>": {"paragraphs": [{"style", "alignment", "text", "runs": [{"text",
"bold", "italic", "underline", "strike", "font", "size", "color", "highlight"}], "list"?: true,
"page_break_before"?: true}], "tables": [[["cell", ...], ...]], "sections": [{"orientation", "width_cm",
"height_cm", "margins_cm": {"top", "bottom", "left", "right"}, "header", "footer"}], "truncated"?: n}
| {"error": "..."}}}
Run properties are effective values (None = inherited is resolved through the character and paragraph
style chains); paragraphs are capped at MAX_PARAGRAPHS, runs at MAX_RUNS per paragraph, documents at
MAX_FILES. A document that cannot be read is recorded as {"error": ...}; any other problem exits non-zero.
"""
import json
import os
import sys
import warnings

from docx import Document

MAX_FILES = 40
MAX_PARAGRAPHS = 400
MAX_RUNS = 60
MAX_TEXT = 2000
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
JC = {"start": "left", "end": "right", "both": "justify", "distribute": "justify"}
warnings.simplefilter("ignore")


def chain(style):
    while style is not None:
        yield style
        style = style.base_style


def inherited(run, para, get):
    value = get(run.font)
    if value is not None:
        return value
    styles = (list(chain(run.style)) if run.style is not None else []) + list(chain(para.style))
    for st in styles:
        value = get(st.font)
        if value is not None:
            return value
    return None


def colour(font):
    try:
        if font.color is not None and font.color.type is not None and font.color.rgb is not None:
            return str(font.color.rgb).upper()
    except Exception:
        pass
    return None


def highlight(run):
    value = run.font.highlight_color
    if value is not None:
        return str(getattr(value, "name", value)).lower()
    rpr = run._r.rPr
    shd = rpr.find(W + "shd") if rpr is not None else None
    fill = shd.get(W + "fill") if shd is not None else None
    return fill.upper() if fill and fill.lower() != "auto" else None


def run_of(run, para):
    size = inherited(run, para, lambda f: f.size)
    return {
        "text": run.text[:MAX_TEXT],
        "bold": bool(inherited(run, para, lambda f: f.bold)),
        "italic": bool(inherited(run, para, lambda f: f.italic)),
        "underline": bool(inherited(run, para, lambda f: f.underline)),
        "strike": bool(inherited(run, para, lambda f: f.strike)),
        "font": inherited(run, para, lambda f: f.name),
        "size": round(size.pt, 1) if size is not None else None,
        "color": colour(run.font),
        "highlight": highlight(run),
    }


def alignment(para):
    for ppr in [para._p.pPr] + [st.element.pPr for st in chain(para.style)]:
        jc = ppr.find(W + "jc") if ppr is not None else None
        if jc is not None:
            val = jc.get(W + "val")
            return JC.get(val, val)
    return "left"


def paragraph_of(para):
    out = {
        "style": para.style.name if para.style is not None else None,
        "alignment": alignment(para),
        "text": para.text[:MAX_TEXT],
        "runs": [run_of(r, para) for r in para.runs[:MAX_RUNS]],
    }
    ppr = para._p.pPr
    if ppr is not None and ppr.find(W + "numPr") is not None:
        out["list"] = True
    if para.paragraph_format.page_break_before:
        out["page_break_before"] = True
    return out


def part_text(part, linked):
    if linked:
        return ""
    return "\n".join(p.text for p in part.paragraphs)[:MAX_TEXT]


def section_of(sec):
    def cm(v):
        return round(v.cm, 2) if v is not None else None

    return {
        "orientation": "landscape" if (sec.page_width or 0) > (sec.page_height or 0) else "portrait",
        "width_cm": cm(sec.page_width),
        "height_cm": cm(sec.page_height),
        "margins_cm": {"top": cm(sec.top_margin), "bottom": cm(sec.bottom_margin),
                       "left": cm(sec.left_margin), "right": cm(sec.right_margin)},
        "header": part_text(sec.header, sec.header.is_linked_to_previous),
        "footer": part_text(sec.footer, sec.footer.is_linked_to_previous),
    }


def document_of(path):
    try:
        doc = Document(path)
    except Exception as err:
        return {"error": "%s: %s" % (type(err).__name__, err)}
    paras = doc.paragraphs
    out = {
        "paragraphs": [paragraph_of(p) for p in paras[:MAX_PARAGRAPHS]],
        "tables": [[[c.text[:MAX_TEXT] for c in row.cells] for row in t.rows] for t in doc.tables[:20]],
        "sections": [section_of(s) for s in doc.sections],
    }
    if len(paras) > MAX_PARAGRAPHS:
        out["truncated"] = len(paras)
    return out


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: state.py HOME (an existing directory)")
    home = sys.argv[1]
    found = []
    for root, dirs, files in os.walk(home):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".docx") and not name.startswith(".~lock"):
                found.append(os.path.relpath(os.path.join(root, name), home))
    docs = {rel: document_of(os.path.join(home, rel)) for rel in sorted(found)[:MAX_FILES]}
    json.dump({"documents": docs}, sys.stdout, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
