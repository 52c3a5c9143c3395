#!/usr/bin/env python3
"""Writes the desktop cross-application tasks (two applications on one screen, issue #31) into
assets/tasks/cross.json, replacing earlier ones of the same templates and keeping every other task.
Run from the repository root: python3 crates/engine/src/apps/cross/make_desktop_tasks.py"""
import json
import os

OUT = "assets/tasks/cross.json"
TEMPLATES = ("sheet_to_report", "pdf_to_report", "bookmarks_to_sheet", "outline_to_slides")


def task(tid, template, domains, instruction, context, difficulty, scenario, slots):
    return {"task_id": tid, "task_instruction": instruction, "context": context, "difficulty": difficulty,
            "domain": "cross_app", "domains": domains, "platform": "desktop", "scenario": scenario,
            "task_type": "cross_app", "template": template, "slots": slots}


def col(i):
    return "ABCDEFGH"[i]


SHEETS = [
    ("q3-sales", "Sales", [["Region", "July", "August", "September"], ["North", 412, 388, 430],
                           ["South", 295, 310, 342], ["West", 518, 497, 505]],
     "q3-report", ["Q3 regional summary", "North closed September at [North Sep] units.",
                   "South sold [South Jul] units in July.", "West peaked in July with [West Jul] units.",
                   "Figures come from the sales workbook."],
     {"[North Sep]": "D2", "[South Jul]": "B3", "[West Jul]": "B4"}),
    ("budget-2026", "Budget", [["Team", "Headcount", "Budget"], ["Design", 6, 84000], ["Support", 11, 97500]],
     "budget-memo", ["Budget memo", "Design plans for [Design heads] people.",
                     "Support asks for [Support budget] in total."],
     {"[Design heads]": "B2", "[Support budget]": "C3"}),
    ("inventory", "Stock", [["Item", "On hand", "Reorder at"], ["Pallets", 140, 60], ["Labels", 2300, 1500],
                            ["Tape", 48, 50]],
     "stock-note", ["Warehouse note", "We hold [Pallets] pallets.", "Tape is at [Tape] rolls, below its reorder point.",
                    "Labels need no action."],
     {"[Pallets]": "B2", "[Tape]": "B4"}),
    ("survey-results", "Scores", [["Question", "Average", "Responses"], ["Onboarding", 4.2, 57],
                                  ["Tooling", 3.6, 55], ["Meetings", 2.9, 58]],
     "survey-summary", ["Survey summary", "Onboarding scored [Onb avg] on average.",
                        "Meetings had [Meet n] responses.", "Tooling scored [Tool avg].",
                        "Next survey in spring."],
     {"[Onb avg]": "B2", "[Meet n]": "C4", "[Tool avg]": "B3"}),
]


def cell_value(rows, ref):
    c = "ABCDEFGH".index(ref[0])
    return rows[int(ref[1:]) - 1][c]


def sheet_tasks():
    out = []
    for i, (book, sheet, rows, doc, paras, refs) in enumerate(SHEETS, 1):
        fills = [{"placeholder": p, "value": str(cell_value(rows, r)), "cell": r} for p, r in refs.items()]
        slots = {"sheet_file": "Documents/%s.xlsx" % book, "sheet": sheet, "rows": rows,
                 "doc": "Documents/%s.docx" % doc, "paragraphs": paras, "fills": fills}
        names = ", ".join("%s (cell %s)" % (f["placeholder"], f["cell"]) for f in fills)
        out.append(task(
            "cross_sheet-to-report_%03d" % i, "sheet_to_report", ["libreoffice_calc", "libreoffice_writer"],
            "Fill in the placeholders of Documents/%s.docx with the matching figures from the %s sheet of "
            "Documents/%s.xlsx, then save the report." % (doc, sheet, book),
            "Calc shows Documents/%s.xlsx and Writer Documents/%s.docx on one screen. Ground truth: %s become "
            "%s. Checkpoints: one per placeholder (0.8 split), the other paragraphs unchanged (0.2)."
            % (book, doc, names, ", ".join(f["value"] for f in fills)),
            "medium" if len(fills) > 2 else "easy", "Office Work", slots))
    return out


PDFS = [
    ("invoice-2041", ["Invoice INV-2041", "Vendor: Harbor Supply Co.", "Amount due: $1,284.50",
                      "Due date: 2026-03-15"],
     "payables", ["Payables log", "Invoice [Invoice number] from Harbor Supply Co.", "Pay [Amount] before the due date.",
                  "Approved by finance."],
     {"[Invoice number]": "INV-2041", "[Amount]": "$1,284.50"}),
    ("lease-summary", ["Lease summary", "Tenant: Northwind Bakery", "Monthly rent: EUR 3,150",
                       "Term: 36 months"],
     "tenant-sheet", ["Tenant sheet", "Tenant: [Tenant].", "Rent per month: [Rent].", "Term: [Term]."],
     {"[Tenant]": "Northwind Bakery", "[Rent]": "EUR 3,150", "[Term]": "36 months"}),
    ("trip-itinerary", ["Itinerary", "Flight: LX 318 Zurich to London", "Hotel: The Grange, 2 nights",
                        "Booking code: QH7T2K"],
     "trip-plan", ["Trip plan", "Fly on [Flight].", "Booking reference [Code].", "Expenses go to project 14."],
     {"[Flight]": "LX 318 Zurich to London", "[Code]": "QH7T2K"}),
    ("lab-report", ["Lab report 77", "Sample: W-0932", "pH: 6.8", "Nitrate: 12 mg/L"],
     "water-memo", ["Water quality memo", "Sample [Sample] was tested.", "It measured a pH of [pH].",
                    "Nitrate stood at [Nitrate]."],
     {"[Sample]": "W-0932", "[pH]": "6.8", "[Nitrate]": "12 mg/L"}),
]


def pdf_tasks():
    out = []
    for i, (pdf, lines, doc, paras, facts) in enumerate(PDFS, 1):
        fills = [{"placeholder": p, "value": v} for p, v in facts.items()]
        slots = {"pdf": "Documents/%s.pdf" % pdf, "pdf_lines": lines, "doc": "Documents/%s.docx" % doc,
                 "paragraphs": paras, "fills": fills}
        out.append(task(
            "cross_pdf-to-report_%03d" % i, "pdf_to_report", ["pdf", "libreoffice_writer"],
            "Complete Documents/%s.docx: replace %s with the facts given in Documents/%s.pdf, and save it."
            % (doc, ", ".join(facts), pdf),
            "Evince shows Documents/%s.pdf and Writer Documents/%s.docx on one screen. Ground truth: %s. "
            "Checkpoints: one per placeholder (0.8 split), the other paragraphs unchanged (0.2)." % (pdf, doc, "; ".join("%s -> %s" % kv for kv in facts.items())),
            "medium" if len(fills) > 2 else "easy", "Office Work", slots))
    return out


MARKS = [
    ("Research", [{"name": "Rust Book", "url": "https://doc.rust-lang.org/book/"},
                  {"name": "SQLite docs", "url": "https://sqlite.org/docs.html"}],
     [{"name": "News", "url": "https://news.example.test/"}], "reading-list", "Links"),
    ("Vendors", [{"name": "Harbor Supply", "url": "https://harbor-supply.test/"},
                 {"name": "Northwind", "url": "https://northwind.test/catalog"},
                 {"name": "Contoso Parts", "url": "https://contoso.test/parts"}],
     [{"name": "Mail", "url": "https://mail.example.test/"}], "vendor-links", "Vendors"),
    ("Travel", [{"name": "Rail planner", "url": "https://rail.example.test/"},
                {"name": "Hotel Grange", "url": "https://grange-hotel.test/"}],
     [], "trip-links", "Trip"),
    ("Docs", [{"name": "Style guide", "url": "https://docs.example.test/style"},
              {"name": "API reference", "url": "https://docs.example.test/api"},
              {"name": "Release notes", "url": "https://docs.example.test/releases"}],
     [{"name": "Calendar", "url": "https://calendar.example.test/"}], "doc-links", "Sheet1"),
]


def bookmark_tasks():
    out = []
    for i, (folder, marks, others, book, sheet) in enumerate(MARKS, 1):
        cells = {}
        for r, m in enumerate(marks, 2):
            cells["A%d" % r] = m["name"]
            cells["B%d" % r] = m["url"]
        slots = {"folder": folder, "bookmarks": marks, "others": others, "file": "Documents/%s.xlsx" % book,
                 "sheet": sheet, "cells": cells}
        out.append(task(
            "cross_bookmarks-to-sheet_%03d" % i, "bookmarks_to_sheet", ["chrome", "libreoffice_calc"],
            "List every bookmark of Chromium's %s folder in Documents/%s.xlsx, one per row under the header: "
            "its name in column A and its URL in column B, in the folder's order. Save the workbook."
            % (folder, book),
            "Chromium shows its bookmark manager (the %s folder on the bookmarks bar holds %d bookmarks; %d "
            "others sit outside it) and Calc shows Documents/%s.xlsx (sheet %s, header Name | URL). Ground truth: "
            "%s. Checkpoints: per bookmark its name and URL (0.8 split), header kept and no other rows (0.2)."
            % (folder, len(marks), len(others), book, sheet, ", ".join("%s=%s" % kv for kv in cells.items())),
            "medium" if len(marks) > 2 else "easy", "Web Browsing", slots))
    return out


DECKS = [
    ("kickoff", ["Goals", "Timeline", "Risks"],
     [["Ship the beta", "Grow to 40 pilots"], ["Beta in May", "GA in September"], ["Hiring", "Vendor delays"]]),
    ("q2-review", ["Revenue", "Churn", "Next steps", "Questions"],
     [["Up 12 %"], ["Down to 3.1 %"], ["Expand EU sales"], ["Open floor"]]),
    ("onboarding", ["Welcome", "Tools"], [["Meet the team"], ["Laptop, chat, tracker"]]),
    ("retro", ["What went well", "What to improve", "Actions"],
     [["Fast reviews"], ["Flaky tests"], ["Fix CI by Friday"]]),
]


def slide_tasks():
    out = []
    for i, (deck, titles, bodies) in enumerate(DECKS, 1):
        slides = [{"title": "[Title %d]" % (n + 1), "bullets": b} for n, b in enumerate(bodies)]
        slots = {"outline": "Documents/%s-outline.txt" % deck, "titles": titles, "deck": "Documents/%s.pptx" % deck,
                 "slides": slides}
        out.append(task(
            "cross_outline-to-slides_%03d" % i, "outline_to_slides", ["files", "libreoffice_impress"],
            "Title the slides of Documents/%s.pptx from Documents/%s-outline.txt: the outline's first line is "
            "slide 1's title, the second slide 2's, and so on. Save the deck." % (deck, deck),
            "The files desktop holds Documents/%s-outline.txt (%d lines) and Impress shows Documents/%s.pptx "
            "(%d slides titled [Title 1]..). Ground truth: titles %s. Checkpoints: one per slide title (0.8 "
            "split), slide count and bodies unchanged (0.2)." % (deck, len(titles), deck, len(slides), titles),
            "medium" if len(titles) > 2 else "easy", "Office Work", slots))
    return out


def main():
    with open(OUT, encoding="utf-8") as fh:
        doc = json.load(fh)
    kept = [t for t in doc["tasks"] if t.get("template") not in TEMPLATES]
    doc["tasks"] = kept + sheet_tasks() + pdf_tasks() + bookmark_tasks() + slide_tasks()
    with open(OUT + ".tmp", "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    os.replace(OUT + ".tmp", OUT)
    print("%s: %d tasks (%d desktop cross-app)" % (OUT, len(doc["tasks"]), len(doc["tasks"]) - len(kept)))


if __name__ == "__main__":
    main()
