#!/usr/bin/env python3
"""State reader of the pdf pack: argv[1] is the environment's home on the host.

Prints one JSON object: pdfs (every PDF under the home outside dot-directories: page count,
metadata, bookmarks, and per page its size, rotation, text (first 2,000 characters), form fields
and annotations; at most 40 PDFs of 200 pages), texts (small .txt files under ~/Documents) and
settings (GSettings' key file, where Evince keeps its defaults, as "section/key" -> value).
"""
import configparser
import json
import os
import sys

import pymupdf

MAX_PDFS, MAX_PAGES, MAX_TEXT = 40, 200, 2000


def page_state(page):
    fields = [{"name": w.field_name, "type": w.field_type_string, "value": w.field_value}
              for w in page.widgets()]
    annots = [{"type": a.type[1], "rect": [round(v, 1) for v in a.rect], "content": a.info.get("content", "")}
              for a in page.annots()]
    out = {"number": page.number + 1, "size": [round(page.rect.width), round(page.rect.height)],
           "rotation": page.rotation, "text": page.get_text()[:MAX_TEXT]}
    if fields:
        out["fields"] = fields
    if annots:
        out["annotations"] = annots
    return out


def pdf(path):
    try:
        doc = pymupdf.open(path)
    except (RuntimeError, ValueError) as err:
        return {"error": str(err)}
    if doc.needs_pass:
        return {"error": "password-protected", "pages": doc.page_count}
    meta = {k: v for k, v in (doc.metadata or {}).items() if v}
    out = {"pages": doc.page_count, "metadata": meta,
           "bookmarks": [{"level": lvl, "title": title, "page": page} for lvl, title, page in doc.get_toc()],
           "page": [page_state(p) for p in doc.pages(0, min(doc.page_count, MAX_PAGES))]}
    if doc.page_count > MAX_PAGES:
        out["pages_truncated"] = doc.page_count - MAX_PAGES
    return out


def settings(home):
    path = os.path.join(home, ".config", "glib-2.0", "settings", "keyfile")
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=",), strict=False)
    cp.optionxform = str
    try:
        with open(path, encoding="utf-8") as fh:
            cp.read_string(fh.read())
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, configparser.Error) as err:
        return {"error": str(err)}
    return {"%s/%s" % (s, k): v for s in cp.sections() for k, v in cp.items(s)}


def main(home):
    pdfs, texts, skipped = {}, {}, 0
    for dirpath, dirnames, filenames in os.walk(home):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), home)
            if name.lower().endswith(".pdf"):
                if len(pdfs) >= MAX_PDFS:
                    skipped += 1
                    continue
                pdfs[rel] = pdf(os.path.join(dirpath, name))
            elif name.lower().endswith(".txt") and rel.startswith("Documents"):
                try:
                    with open(os.path.join(dirpath, name), encoding="utf-8") as fh:
                        texts[rel] = fh.read(MAX_TEXT)
                except (OSError, UnicodeDecodeError) as err:
                    texts[rel] = {"error": str(err)}
    out = {"pdfs": pdfs, "texts": texts, "settings": settings(home)}
    if skipped:
        out["pdfs_truncated"] = skipped
    json.dump(out, sys.stdout, sort_keys=True, default=str)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: state.py HOME")
    main(sys.argv[1])
