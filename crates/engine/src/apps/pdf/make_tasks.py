#!/usr/bin/env python3
"""Writes tasks.json of the pdf pack. Run from the crate root: python3 crates/engine/src/apps/pdf/make_tasks.py"""
import json
import os

TASKS = []


def add(tid, text, context, difficulty, template, slots, scenario):
    TASKS.append({"task_id": "pdf_%s" % tid, "task_instruction": text, "context": context,
                  "difficulty": difficulty, "domain": "pdf", "domains": ["pdf"], "platform": "desktop",
                  "scenario": scenario, "task_type": "single_app", "template": template, "slots": slots})


def doc(name, topic, n=4):
    """A document of n pages with distinct headings and lines."""
    pages = []
    for i in range(1, n + 1):
        pages.append({"heading": "%s - Part %d" % (topic, i),
                      "lines": ["Section %d.1 covers the %s figures for week %d." % (i, topic.lower(), 10 + i),
                                "Reference code %s-%03d is filed with the records office." % (name.upper()[:3], 100 + 7 * i),
                                "Next review of part %d is due on 2025-0%d-15." % (i, i + 1)]})
    return {"path": "Documents/%s.pdf" % name, "pages": pages,
            "metadata": {"author": "Dana Ruiz", "subject": topic, "keywords": name}}


FORM_FIELDS = [
    {"name": "full_name", "label": "Full name:", "y": 260},
    {"name": "email", "label": "E-mail:", "y": 300},
    {"name": "department", "label": "Department:", "y": 340},
    {"name": "start_date", "label": "Start date:", "y": 380},
    {"name": "newsletter", "label": "Newsletter:", "y": 420, "kind": "checkbox"},
]


def form(tid, name, values, difficulty="easy", same_file=False):
    pdf = doc(name, name.replace("-", " ").title(), 1)
    pdf["fields"] = FORM_FIELDS
    out = pdf["path"] if same_file else "Documents/%s-filled.pdf" % name
    said = ", ".join("%s %s" % (f["label"].rstrip(":"), "ticked" if values[f["name"]] is True else repr(values[f["name"]]))
                     for f in FORM_FIELDS if f["name"] in values)
    where = "save it in place" if same_file else "save the filled form as ~/%s" % out
    text = "Fill in the form ~/%s in the PDF viewer (%s) and %s." % (pdf["path"], said, where)
    context = ("The setup makes a one-page form with PyMuPDF (fields %s) and opens it in Evince. Ground truth: "
               "the fields %s in ~/%s (PyMuPDF reads the widgets). Checkpoints: one per field (0.8 split), the "
               "rest of the document kept (0.2)." % ([f["name"] for f in FORM_FIELDS], json.dumps(values), out))
    slots = {"pdf": pdf, "values": values, "out": out}
    if not same_file:
        slots["remove"] = [out]
    add(tid, text, context, difficulty, "pdf_form", slots, "Forms")


def extract(tid, name, topic, page, difficulty="easy"):
    # Evince writes PDFs only (its Print to File: PDF, PostScript, SVG) and the pdf screen holds no
    # text editor, so a page's text leaves the viewer as a one-page PDF of its own (#31).
    pdf = doc(name, topic)
    out = "Documents/%s-page%d.pdf" % (name, page)
    text = "Extract page %d of ~/%s, text and all, into a one-page PDF of its own, ~/%s." % (page, pdf["path"], out)
    context = ("The setup makes a %d-page PDF with PyMuPDF and opens it in Evince (Print > Print to File with the "
               "page as the range). Ground truth: page %d's heading and lines, and no other page's, in the text of "
               "~/%s. Checkpoints: one per line (0.8 split), no other page's heading (0.2)." % (len(pdf["pages"]), page, out))
    add(tid, text, context, difficulty, "pdf_extract", {"pdf": pdf, "page": page, "out": out, "remove": [out]},
        "Text Extraction")


def export(tid, name, topic, first, last, difficulty="medium"):
    pdf = doc(name, topic, 5)
    out = "Documents/%s-p%d-%d.pdf" % (name, first, last) if first != last else "Documents/%s-page%d.pdf" % (name, first)
    what = "page %d" % first if first == last else "pages %d to %d" % (first, last)
    text = "Export %s of ~/%s as a new PDF, ~/%s." % (what, pdf["path"], out)
    context = ("The setup makes a 5-page PDF and opens it in Evince (Print > Print to File exports a page range). "
               "Ground truth: a PDF holding %s. Checkpoints: page count (0.3), each page's heading (0.7 split)." % what)
    add(tid, text, context, difficulty, "pdf_export",
        {"pdf": pdf, "pages": [first, last], "out": out, "remove": [out]}, "Export")


def annotate(tid, name, topic, page, kind, phrase, note="", difficulty="medium"):
    pdf = doc(name, topic, 3)
    out = "Documents/%s-annotated.pdf" % name
    if kind == "highlight":
        text = "In the PDF viewer, highlight \"%s\" on page %d of ~/%s and save the result as ~/%s." % (phrase, page, pdf["path"], out)
    else:
        text = ("In the PDF viewer, add a note saying \"%s\" next to \"%s\" on page %d of ~/%s and save the result "
                "as ~/%s." % (note, phrase, page, pdf["path"], out))
    context = ("The setup makes a 3-page PDF and opens it in Evince. Ground truth: a %s annotation on page %d at "
               "%r in ~/%s. Checkpoints: the annotation's type (0.4), its place or text (0.4), pages kept (0.2)."
               % (kind, page, phrase, out))
    add(tid, text, context, difficulty, "pdf_annotate",
        {"pdf": pdf, "page": page, "phrase": phrase, "kind": kind, "note": note, "out": out, "remove": [out]},
        "Annotations")


BASE = {"continuous": "true", "dual-page": "false", "inverted-colors": "false", "show-sidebar": "false",
        "sizing-mode": "'fit-width'"}


def pref(tid, text, changes, difficulty="easy"):
    preset = {k: BASE[k] for k in changes}
    keep = {k: v for k, v in BASE.items() if k not in changes}
    context = ("The setup writes Evince's defaults %s into ~/.config/glib-2.0/settings/keyfile ([org/gnome/evince/"
               "default], GSettings' key-file backend) and opens a PDF. Ground truth: %s there (Evince saves its view "
               "as the default with 'Save Current Settings as Default', Ctrl+T). Checkpoints: one per key (0.8 split), "
               "other defaults kept (0.2)." % (json.dumps(preset), json.dumps(changes)))
    add(tid, text, context, difficulty, "evince_pref",
        {"pdf": doc("viewer-guide", "Viewer Guide", 3), "preset": preset, "changes": changes, "keep": keep},
        "Viewer Preferences")


def main():
    form("form_name", "onboarding", {"full_name": "Maya Lindqvist"})
    form("form_email", "signup", {"email": "maya.l@example.test"})
    form("form_checkbox", "subscription", {"newsletter": True})
    form("form_two", "visitor-pass", {"full_name": "Omar Haddad", "department": "Facilities"}, "medium")
    form("form_date", "leave-request", {"full_name": "Ines Duarte", "start_date": "2025-03-03"}, "medium")
    form("form_in_place", "registration", {"email": "kai@example.test"}, "medium", True)
    form("form_all", "enrolment", {"full_name": "Lena Park", "email": "lena.park@example.test",
                                   "department": "Research", "start_date": "2025-09-01", "newsletter": True}, "hard")
    form("form_three", "badge-request", {"full_name": "Tom Berg", "department": "Security", "newsletter": True}, "hard")
    extract("extract_p1", "quarterly", "Quarterly Report", 1)
    extract("extract_p2", "handbook", "Staff Handbook", 2)
    extract("extract_p3", "minutes", "Board Minutes", 3)
    extract("extract_p4", "audit", "Audit Summary", 4)
    extract("extract_p2_policy", "policy", "Travel Policy", 2)
    extract("extract_p3_plan", "roadmap", "Product Roadmap", 3, "medium")
    export("export_page2", "brochure", "Spring Brochure", 2, 2)
    export("export_p1_2", "contract", "Service Contract", 1, 2)
    export("export_p3_5", "thesis", "Thesis Draft", 3, 5)
    export("export_page4", "catalogue", "Parts Catalogue", 4, 4)
    export("export_p2_4", "manual", "Operator Manual", 2, 4, "hard")
    export("export_page1", "invoice", "Invoice Batch", 1, 1, "easy")
    annotate("highlight_ref", "findings", "Field Findings", 2, "highlight", "Reference code FIN-114")
    annotate("highlight_review", "proposal", "Grant Proposal", 1, "highlight", "Next review of part 1")
    annotate("highlight_section", "lecture", "Lecture Notes", 3, "highlight", "Section 3.1")
    annotate("note_check", "budget", "Budget Plan", 2, "note", "Reference code BUD-114", "Check this code")
    annotate("note_due", "schedule", "Project Schedule", 1, "note", "Next review of part 1", "Move to April")
    annotate("note_figures", "survey", "Survey Results", 3, "note", "Section 3.1", "Figures verified", "hard")
    pref("dual_page", "Make Evince show two pages side by side (dual page) by default.", {"dual-page": "true"})
    pref("single_page", "Make Evince show one page at a time instead of a continuous scroll by default.",
         {"continuous": "false"})
    pref("inverted", "Make Evince open documents with inverted colours (night mode) by default.",
         {"inverted-colors": "true"})
    pref("sidebar", "Make Evince show its side pane by default.", {"show-sidebar": "true"})
    pref("fit_page", "Make Evince fit the whole page in the window by default.", {"sizing-mode": "'fit-page'"})
    pref("automatic_zoom", "Set Evince's default zoom to Automatic.", {"sizing-mode": "'automatic'"})
    pref("dual_sidebar", "By default, Evince should show two pages side by side and its side pane.",
         {"dual-page": "true", "show-sidebar": "true"}, "medium")
    pref("reading_mode", "Set Evince's defaults for reading at night: inverted colours, one page at a time, "
         "whole page fitted.", {"inverted-colors": "true", "continuous": "false", "sizing-mode": "'fit-page'"}, "hard")


main()
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "tasks.json"), "w", encoding="utf-8") as fh:
    json.dump({"tasks": TASKS}, fh, indent=1, ensure_ascii=False)
    fh.write("\n")
print("%d tasks" % len(TASKS))
