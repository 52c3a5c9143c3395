#!/usr/bin/env python3
"""Writes the shipped tasks of the LibreOffice Writer and Impress packs (issue #31):
crates/engine/src/apps/libreoffice_writer/tasks.json and crates/engine/src/apps/libreoffice_impress/tasks.json.

Each task fills one of the pack's templates with complete slots (the document the setup builds and
the ground truth); run `python3 crates/engine/src/apps/generate_office_tasks.py` after editing, then the loop."""
import json
import os

ROOT = os.path.dirname(os.path.abspath(__file__))

MEMO = [
    {"text": "Quarterly Operations Memo", "style": None},
    "To: All regional managers",
    "The third quarter closed with revenue of 4.2 million, eight percent above plan.",
    "Warehouse consolidation in Leeds finished two weeks early and under budget.",
    "Customer support response times fell to an average of four hours.",
    "Next quarter we will focus on supplier contracts and the new returns policy.",
    "Please send your regional forecasts to Dana Whitfield by October 20.",
]
REPORT = [
    "Project Falcon Status Report",
    "Summary",
    "The migration of the billing service reached the testing phase on schedule.",
    "Risks",
    "The vendor has not yet confirmed the data retention terms for archived invoices.",
    "Two engineers are on leave in November, which may delay load testing.",
    "Next Steps",
    "Complete load testing by November 28 and schedule the cutover weekend.",
]
MINUTES = [
    "Minutes of the Garden Club Meeting",
    "Date: 12 March 2026, Community Hall",
    "Present: Alma Reyes, Ben Cho, Clara Novak, Dev Patel",
    "The treasurer reported a balance of 1,240 euros after the seed order.",
    "Members agreed to hold the spring plant sale on 18 April.",
    "Ben Cho will contact the council about water access for the allotments.",
    "The next meeting is on 9 April at 7 pm.",
]
NEWSLETTER = [
    "Riverside Library Newsletter",
    "Winter opening hours start on 1 December: the library closes at 6 pm on weekdays.",
    "The book club reads The Remains of the Day in January; copies are at the front desk.",
    "Children's story time moves to Saturday mornings at 10 am.",
    "Volunteers are needed for the annual book sale in February.",
    "Thank you to everyone who donated to the reading room renovation.",
]
POLICY = [
    "Remote Work Policy",
    "Employees may work remotely up to three days per week with their manager's approval.",
    "Core hours are 10 am to 3 pm in the employee's local time zone.",
    "Company laptops must be used for all work and kept updated.",
    "Expenses for home office equipment are reimbursed up to 300 dollars per year.",
    "This policy is reviewed every twelve months by the People team.",
]
RECIPE = [
    "Lemon Olive Oil Cake",
    "Ingredients",
    "200 g plain flour",
    "150 g caster sugar",
    "3 eggs",
    "120 ml olive oil",
    "Zest and juice of two lemons",
    "Method",
    "Whisk the eggs and sugar until pale, then add the oil and lemon.",
    "Fold in the flour and bake at 180 degrees for 40 minutes.",
]
DOCS = {"memo": MEMO, "report": REPORT, "minutes": MINUTES, "newsletter": NEWSLETTER, "policy": POLICY,
        "recipe": RECIPE}


def paras(name):
    return [p if isinstance(p, str) else p["text"] for p in DOCS[name]]


WRITER_SCENARIO = "Document Editing"


def writer_task(n, key, template, instruction, context, slots, difficulty="easy"):
    return {
        "task_id": "libreoffice_writer_%s_%03d" % (key, n),
        "task_instruction": instruction,
        "context": context,
        "difficulty": difficulty,
        "domain": "libreoffice_writer",
        "domains": ["libreoffice_writer"],
        "platform": "desktop",
        "scenario": WRITER_SCENARIO,
        "task_type": "single_app",
        "template": template,
        "slots": slots,
    }


def doc_slots(name, path=None, **extra):
    slots = {"doc": path or "Documents/%s.docx" % name, "paragraphs": paras(name)}
    slots.update(extra)
    return slots


def writer_tasks():
    out = []
    add = out.append
    # character formatting
    char = [
        ("memo", [{"text": "eight percent above plan", "bold": True}],
         "In Documents/memo.docx, make the phrase 'eight percent above plan' bold and save the document."),
        ("report", [{"text": "Project Falcon Status Report", "size": 20, "bold": True}],
         "Make the first line of Documents/report.docx (the report title) bold at 20 pt, then save."),
        ("minutes", [{"text": "18 April", "italic": True, "underline": True}],
         "In the garden club minutes (Documents/minutes.docx), italicise and underline the sale date '18 April'. Save it."),
        ("newsletter", [{"text": "Volunteers are needed", "color": "C9211E"}],
         "Colour the words 'Volunteers are needed' dark red (hex C9211E) in Documents/newsletter.docx and save."),
        ("policy", [{"text": "three days per week", "highlight": "yellow"}],
         "Highlight 'three days per week' in yellow in Documents/policy.docx and save the file."),
        ("recipe", [{"text": "Lemon Olive Oil Cake", "font": "Liberation Sans"}],
         "Change the font of the recipe title 'Lemon Olive Oil Cake' in Documents/recipe.docx to Liberation Sans; save."),
        ("memo", [{"text": "Dana Whitfield", "bold": True}, {"text": "October 20", "bold": True, "underline": True}],
         "In Documents/memo.docx make 'Dana Whitfield' bold and 'October 20' bold and underlined. Save."),
        ("policy", [{"text": "300 dollars", "strike": True}],
         "Strike through '300 dollars' in Documents/policy.docx (the amount is being revised) and save."),
    ]
    for i, (doc, targets, instr) in enumerate(char, 1):
        props = "; ".join("%r: %s" % (t["text"], ", ".join("%s=%s" % (k, v) for k, v in t.items() if k != "text"))
                          for t in targets)
        add(writer_task(i, "char-format", "char_format", instr,
                        "Documents/%s.docx is built by the setup (one run per paragraph, Liberation Serif 12 pt). "
                        "Ground truth: every character of %s. Checkpoints: one per property." % (doc, props),
                        doc_slots(doc, targets=targets)))
    # paragraph formatting
    para = [
        ("memo", [{"text": "Quarterly Operations Memo", "alignment": "center"}],
         "Centre the title line 'Quarterly Operations Memo' in Documents/memo.docx and save."),
        ("newsletter", [{"text": "Winter opening hours", "alignment": "justify", "line_spacing": 1.5}],
         "In Documents/newsletter.docx, justify the paragraph about winter opening hours and set its line spacing to 1.5 lines. Save."),
        ("policy", [{"text": "Core hours are", "left_indent_cm": 1.5}, {"text": "Company laptops", "left_indent_cm": 1.5}],
         "Indent the 'Core hours' and 'Company laptops' paragraphs of Documents/policy.docx by 1.5 cm from the left. Save."),
        ("report", [{"text": "Complete load testing", "alignment": "right"}],
         "Right-align the last paragraph of Documents/report.docx (it starts 'Complete load testing') and save."),
        ("minutes", [{"text": "The treasurer reported", "line_spacing": 2.0, "space_after": 12}],
         "Double-space the treasurer's paragraph in Documents/minutes.docx and give it 12 pt spacing below. Save."),
    ]
    for i, (doc, targets, instr) in enumerate(para, 1):
        add(writer_task(i, "para-format", "para_format", instr,
                        "Ground truth: %s. Direct or style formatting counts; checkpoints one per property." % json.dumps(targets),
                        doc_slots(doc, targets=targets), "medium" if len(targets) > 1 or len(targets[0]) > 2 else "easy"))
    # styles
    styles = [
        ("report", [{"text": "Project Falcon Status Report", "style": "Title"}, {"text": "Summary", "style": "Heading 1"},
                    {"text": "Risks", "style": "Heading 1"}, {"text": "Next Steps", "style": "Heading 1"}],
         "Format Documents/report.docx properly: the first line as Title and 'Summary', 'Risks' and 'Next Steps' as Heading 1. Save."),
        ("recipe", [{"text": "Ingredients", "style": "Heading 2"}, {"text": "Method", "style": "Heading 2"}],
         "In Documents/recipe.docx apply the Heading 2 style to the 'Ingredients' and 'Method' lines and save."),
        ("minutes", [{"text": "Minutes of the Garden Club Meeting", "style": "Heading 1"}],
         "Give the first line of Documents/minutes.docx the Heading 1 paragraph style. Save."),
    ]
    for i, (doc, targets, instr) in enumerate(styles, 1):
        add(writer_task(i, "apply-style", "apply_style", instr,
                        "Ground truth: %s (style names compared without case/spaces)." % json.dumps(targets),
                        doc_slots(doc, targets=targets), "medium" if len(targets) > 2 else "easy"))
    # find and replace
    fr = [
        ("report", "Falcon", "Osprey", 1, "The project was renamed: replace 'Falcon' with 'Osprey' everywhere in Documents/report.docx and save."),
        ("memo", "regional", "area", 2, "In Documents/memo.docx replace every 'regional' with 'area'. Save the document."),
        ("newsletter", "Saturday", "Sunday", 1, "Story time moves to Sundays instead: replace 'Saturday' with 'Sunday' in Documents/newsletter.docx. Save."),
        ("policy", "employee", "staff member", 1, "Replace the word 'employee' (lowercase, singular) with 'staff member' throughout Documents/policy.docx and save."),
    ]
    for i, (doc, old, new, count, instr) in enumerate(fr, 1):
        add(writer_task(i, "find-replace", "find_replace", instr,
                        "'%s' occurs %d time(s) (case-sensitive). Ground truth: no '%s' left, %d x '%s', other text unchanged. "
                        "Checkpoints: new present (0.4), old gone (0.4), rest unchanged (0.2)." % (old, count, old, count, new),
                        doc_slots(doc, old=old, new=new, expected_count=count)))
    # tables
    table = [["Region", "Q1", "Q2", "Q3"], ["North", "120", "135", ""], ["South", "98", "", "110"], ["East", "143", "150", "161"]]
    fills = [
        ([{"row": 1, "col": 3, "value": "142"}, {"row": 2, "col": 2, "value": "104"}],
         "The sales table in Documents/sales-summary.docx has two empty cells: North Q3 is 142 and South Q2 is 104. Fill them in and save."),
        ([{"row": 1, "col": 3, "value": "139"}],
         "Enter 139 as North's Q3 figure in the table of Documents/sales-summary.docx and save."),
        ([{"row": 2, "col": 2, "value": "101"}, {"row": 1, "col": 3, "value": "140"}],
         "Complete the table in Documents/sales-summary.docx: South Q2 = 101, North Q3 = 140. Save."),
    ]
    for i, (cells, instr) in enumerate(fills, 1):
        add(writer_task(i, "table-fill", "table_fill", instr,
                        "The setup writes a 4x4 table (header Region,Q1,Q2,Q3). Ground truth cells: %s. Checkpoints: cells (0.8), rest kept (0.2)." % json.dumps(cells),
                        {"doc": "Documents/sales-summary.docx",
                         "paragraphs": ["Sales Summary", "Units sold per region and quarter (thousands)."],
                         "table": table, "after_table": ["Figures are provisional until the audit."], "cells": cells}))
    inserts = [
        ("minutes", [["Task", "Owner"], ["Plant sale", "Alma Reyes"], ["Water access", "Ben Cho"]],
         "At the end of Documents/minutes.docx add a 3-row, 2-column table: header Task | Owner, then Plant sale | Alma Reyes and Water access | Ben Cho. Save."),
        ("recipe", [["Oven", "Time"], ["180 C", "40 min"]],
         "Append a small table to Documents/recipe.docx with the header Oven | Time and one row 180 C | 40 min. Save."),
        ("memo", [["Metric", "Value"], ["Revenue", "4.2M"], ["Response time", "4 h"], ["Plan delta", "+8%"]],
         "Add a table at the end of Documents/memo.docx: Metric | Value; Revenue | 4.2M; Response time | 4 h; Plan delta | +8%. Save.")
    ]
    for i, (doc, rows, instr) in enumerate(inserts, 1):
        add(writer_task(i, "insert-table", "insert_table", instr,
                        "The document has no table initially. Ground truth: a table %s. Checkpoints: shape (0.3), cells (0.7)." % json.dumps(rows),
                        doc_slots(doc, rows=rows), "medium"))
    # headers and footers
    hf = [
        ("report", {"header_text": "Project Falcon - Confidential"},
         "Add the page header 'Project Falcon - Confidential' to Documents/report.docx and save."),
        ("policy", {"header_text": "People Team", "page_number": True},
         "Put 'People Team' in the header of Documents/policy.docx and a page number in its footer. Save."),
        ("newsletter", {"header_text": "Riverside Library", "footer_text": "Issue 14"},
         "Give Documents/newsletter.docx the header 'Riverside Library' and the footer 'Issue 14'. Save."),
    ]
    for i, (doc, extra, instr) in enumerate(hf, 1):
        add(writer_task(i, "header-footer", "header_footer", instr,
                        "The document has no header or footer. Ground truth: %s on the default page style." % json.dumps(extra),
                        doc_slots(doc, **extra), "medium" if len(extra) > 1 else "easy"))
    # page setup
    ps = [
        ("report", {"orientation": "landscape"}, "Switch Documents/report.docx to landscape orientation and save."),
        ("memo", {"margins_cm": {"left": 2.0, "right": 2.0, "top": 2.0, "bottom": 2.0}},
         "Set all four page margins of Documents/memo.docx to 2 cm and save."),
        ("newsletter", {"paper": "A4", "margins_cm": {"left": 2.5, "right": 2.5}},
         "Change Documents/newsletter.docx to A4 paper with 2.5 cm left and right margins. Save."),
    ]
    for i, (doc, extra, instr) in enumerate(ps, 1):
        extra.setdefault("margins_cm", {})
        add(writer_task(i, "page-setup", "page_setup", instr,
                        "The initial page is US Letter portrait, margins 3.18 cm left/right and 2.54 cm top/bottom. Ground truth: %s." % json.dumps(extra),
                        doc_slots(doc, **extra)))
    # insert / delete paragraphs
    ins = [
        ("minutes", "Ben Cho will contact", "Clara Novak will order new seed trays before the sale.",
         "In Documents/minutes.docx, add a new paragraph 'Clara Novak will order new seed trays before the sale.' right after the one about Ben Cho. Save."),
        ("policy", "Core hours are", "Meetings should be scheduled within core hours whenever possible.",
         "Insert the paragraph 'Meetings should be scheduled within core hours whenever possible.' after the core-hours paragraph of Documents/policy.docx. Save."),
    ]
    for i, (doc, anchor, text, instr) in enumerate(ins, 1):
        add(writer_task(i, "insert-paragraph", "insert_paragraph", instr,
                        "Ground truth: a new paragraph %r directly after the one containing %r; others unchanged." % (text, anchor),
                        doc_slots(doc, anchor=anchor, text=text), "medium"))
    dele = [
        ("newsletter", ["Children's story time"], "Story time is cancelled: delete that paragraph from Documents/newsletter.docx and save."),
        ("report", ["Two engineers are on leave"], "Remove the paragraph about engineers on leave from Documents/report.docx. Save."),
    ]
    for i, (doc, texts, instr) in enumerate(dele, 1):
        add(writer_task(i, "delete-paragraph", "delete_paragraph", instr,
                        "Ground truth: no paragraph containing %s; the others kept in order, no empty paragraph left." % json.dumps(texts),
                        doc_slots(doc, texts=texts)))
    # lists
    lists = [
        ("recipe", ["200 g plain flour", "150 g caster sugar", "3 eggs", "120 ml olive oil", "Zest and juice of two lemons"], "bullet",
         "Turn the five ingredient lines of Documents/recipe.docx into a bulleted list. Save."),
        ("recipe", ["Whisk the eggs", "Fold in the flour"], "number",
         "Make the two method steps of Documents/recipe.docx a numbered list (1., 2.). Save."),
        ("minutes", ["The treasurer reported", "Members agreed", "Ben Cho will contact"], "bullet",
         "Bullet the three decision paragraphs of Documents/minutes.docx (treasurer, plant sale, water access). Save."),
    ]
    for i, (doc, targets, kind, instr) in enumerate(lists, 1):
        add(writer_task(i, "make-list", "make_list", instr,
                        "Ground truth: %s numbered with numFmt %s." % (json.dumps(targets), "bullet" if kind == "bullet" else "decimal"),
                        doc_slots(doc, targets=targets, kind=kind), "medium"))
    # page breaks
    pb = [
        ("report", "Next Steps", "Make the 'Next Steps' section of Documents/report.docx start on a new page. Save."),
        ("recipe", "Method", "Put the 'Method' heading of Documents/recipe.docx at the top of a new page and save."),
    ]
    for i, (doc, text, instr) in enumerate(pb, 1):
        add(writer_task(i, "page-break", "page_break", instr,
                        "Ground truth: a page break right before the paragraph %r, and only one." % text,
                        doc_slots(doc, text=text)))
    return out


LAUNCH = [
    {"title": "Product Launch Plan", "subtitle": "Spring 2026 - Marketing team"},
    {"title": "Goals", "bullets": ["Reach 5,000 sign-ups in the first month", "Press coverage in three trade magazines"]},
    {"title": "Timeline", "bullets": ["Beta ends on 14 March", "Launch event on 2 April", "Retrospective on 30 April"]},
    {"title": "Budget", "bullets": ["Events: 40,000", "Advertising: 25,000", "Contingency: 5,000"]},
    {"title": "Next Steps", "bullets": ["Confirm the venue", "Brief the sales team"]},
]
ONBOARDING = [
    {"title": "Welcome to Northwind", "subtitle": "New starter onboarding"},
    {"title": "Your First Week", "bullets": ["Meet your buddy", "Set up your laptop", "Read the handbook"]},
    {"title": "Tools We Use", "bullets": ["Chat for quick questions", "The tracker for all work items"]},
    {"title": "Who To Ask", "bullets": ["IT desk: extension 4410", "People team: people@northwind.example"]},
]
QUARTERLY = [
    {"title": "Q3 Results", "subtitle": "Finance review, October 2026"},
    {"title": "Revenue", "bullets": ["4.2 million, eight percent above plan", "Strongest month: September"]},
    {"title": "Costs", "bullets": ["Logistics down twelve percent", "Hiring on plan"]},
    {"title": "Outlook", "bullets": ["Q4 forecast: 4.6 million", "Supplier contracts renewed in November"]},
    {"title": "Questions"},
]
LECTURE = [
    {"title": "Introduction to Photosynthesis", "subtitle": "Biology 101, Lecture 7"},
    {"title": "Light Reactions", "bullets": ["Take place in the thylakoid membranes", "Produce ATP and NADPH"]},
    {"title": "Calvin Cycle", "bullets": ["Fixes carbon dioxide", "Runs in the stroma"]},
    {"title": "Summary", "bullets": ["Light energy becomes chemical energy", "Oxygen is a by-product"]},
]
DECKS = {"launch": LAUNCH, "onboarding": ONBOARDING, "quarterly": QUARTERLY, "lecture": LECTURE}


def impress_task(n, key, template, instruction, context, deck, slots, difficulty="easy"):
    full = {"deck": "Documents/%s.pptx" % deck, "slides": DECKS[deck]}
    full.update(slots)
    return {
        "task_id": "libreoffice_impress_%s_%03d" % (key, n),
        "task_instruction": instruction,
        "context": "Documents/%s.pptx is built by the setup (python-pptx default template, slides titled %s). %s"
                   % (deck, json.dumps([s["title"] for s in DECKS[deck]]), context),
        "difficulty": difficulty,
        "domain": "libreoffice_impress",
        "domains": ["libreoffice_impress"],
        "platform": "desktop",
        "scenario": "Presentations",
        "task_type": "single_app",
        "template": template,
        "slots": full,
    }


def impress_tasks():
    out = []
    add = out.append
    for i, (deck, slide, title, instr) in enumerate([
        ("launch", 5, "Next Steps and Owners", "Rename the last slide of Documents/launch.pptx to 'Next Steps and Owners' and save."),
        ("quarterly", 1, "Q3 2026 Results", "Change the title of the first slide in Documents/quarterly.pptx to 'Q3 2026 Results'. Save."),
        ("lecture", 3, "The Calvin Cycle", "In Documents/lecture.pptx retitle slide 3 'The Calvin Cycle' and save."),
    ], 1):
        add(impress_task(i, "edit-title", "edit_title", instr,
                         "Ground truth: slide %d titled %r, other titles unchanged. Checkpoints: title (0.7), rest (0.3)." % (slide, title),
                         deck, {"slide": slide, "title": title}))
    for i, (deck, pos, title, bullets, instr) in enumerate([
        ("launch", 4, "Channels", ["Newsletter", "Partner webinars", "Social media"],
         "Add a slide titled 'Channels' as slide 4 of Documents/launch.pptx, listing Newsletter, Partner webinars and Social media. Save."),
        ("onboarding", 5, "Useful Links", ["Handbook: intranet/handbook", "Holidays: intranet/leave"],
         "Append a slide 'Useful Links' at the end of Documents/onboarding.pptx with two lines: 'Handbook: intranet/handbook' and 'Holidays: intranet/leave'. Save."),
        ("lecture", 2, "Learning Objectives", ["Name the two stages of photosynthesis", "Explain where each stage happens"],
         "Insert a 'Learning Objectives' slide right after the title slide of Documents/lecture.pptx with the points 'Name the two stages of photosynthesis' and 'Explain where each stage happens'. Save."),
    ], 1):
        add(impress_task(i, "add-slide", "add_slide", instr,
                         "Ground truth: slide %d titled %r with body lines %s. Checkpoints: slide (0.4), position (0.2), lines (0.4)." % (pos, title, json.dumps(bullets)),
                         deck, {"position": pos, "title": title, "bullets": bullets}, "medium"))
    for i, (deck, title, instr) in enumerate([
        ("quarterly", "Questions", "Delete the 'Questions' slide from Documents/quarterly.pptx and save."),
        ("launch", "Budget", "The budget is presented separately: remove the Budget slide from Documents/launch.pptx. Save."),
        ("onboarding", "Tools We Use", "Remove the 'Tools We Use' slide from Documents/onboarding.pptx and save."),
    ], 1):
        add(impress_task(i, "delete-slide", "delete_slide", instr,
                         "Ground truth: no slide titled %r, the others in order. Checkpoints: deleted (0.7), rest (0.3)." % title,
                         deck, {"title": title}))
    for i, (deck, title, pos, instr) in enumerate([
        ("launch", "Budget", 2, "Move the Budget slide of Documents/launch.pptx so it comes right after the title slide. Save."),
        ("quarterly", "Outlook", 2, "Make 'Outlook' the second slide of Documents/quarterly.pptx. Save."),
        ("lecture", "Summary", 2, "Put the Summary slide of Documents/lecture.pptx in second place and save."),
    ], 1):
        add(impress_task(i, "move-slide", "move_slide", instr,
                         "Ground truth: %r is slide %d, the others keep their relative order." % (title, pos),
                         deck, {"title": title, "position": pos}, "medium"))
    for i, (deck, notes, instr) in enumerate([
        ("quarterly", [{"slide": 2, "text": "Mention the September spike."}],
         "Add the speaker note 'Mention the September spike.' to slide 2 of Documents/quarterly.pptx. Save."),
        ("lecture", [{"slide": 1, "text": "Welcome students and take attendance."}, {"slide": 4, "text": "Ask for questions."}],
         "In Documents/lecture.pptx add speaker notes: slide 1 'Welcome students and take attendance.' and slide 4 'Ask for questions.' Save."),
        ("launch", [{"slide": 3, "text": "The beta may be extended by a week."}],
         "Write the speaker note 'The beta may be extended by a week.' under the Timeline slide of Documents/launch.pptx. Save."),
    ], 1):
        add(impress_task(i, "speaker-notes", "speaker_notes", instr,
                         "No slide has notes initially. Ground truth: %s." % json.dumps(notes),
                         deck, {"notes": notes}, "medium" if len(notes) > 1 else "easy"))
    for i, (deck, slide, props, instr) in enumerate([
        ("launch", 1, {"bold": True}, "Make the title on the first slide of Documents/launch.pptx bold. Save."),
        ("quarterly", 2, {"color": "C9211E"}, "Colour the 'Revenue' slide title in Documents/quarterly.pptx dark red (C9211E). Save."),
        ("onboarding", 1, {"size": 54, "bold": True}, "Set the title of slide 1 of Documents/onboarding.pptx to 54 pt bold. Save."),
        ("lecture", 2, {"italic": True}, "Italicise the title of slide 2 in Documents/lecture.pptx. Save."),
    ], 1):
        slots = {"slide": slide}
        slots.update(props)
        add(impress_task(i, "title-format", "title_format", instr,
                         "Ground truth: every run of slide %d's title has %s." % (slide, json.dumps(props)),
                         deck, slots))
    for i, (deck, slide, kind, text, instr) in enumerate([
        ("launch", 2, "textbox", "Target set by the board", "Add a text box reading 'Target set by the board' to slide 2 of Documents/launch.pptx. Save."),
        ("quarterly", 4, "rectangle", "Draft", "Draw a rectangle on the Outlook slide (4) of Documents/quarterly.pptx containing the text 'Draft'. Save."),
        ("onboarding", 2, "ellipse", "Day 1", "Put an ellipse with the text 'Day 1' on slide 2 of Documents/onboarding.pptx. Save."),
    ], 1):
        add(impress_task(i, "add-shape", "add_shape", instr,
                         "Ground truth: a non-placeholder %s reading %r on slide %d. Checkpoints: text (0.6), kind (0.4)." % (kind, text, slide),
                         deck, {"slide": slide, "kind": kind, "text": text}, "medium"))
    for i, (deck, targets, color, instr) in enumerate([
        ("launch", [1], "FFF2CC", "Give the title slide of Documents/launch.pptx a light yellow background (FFF2CC). Save."),
        ("lecture", [1, 2, 3, 4], "DEEBF7", "Set the background of every slide in Documents/lecture.pptx to light blue DEEBF7. Save."),
        ("quarterly", [5], "E2F0D9", "Make the background of the Questions slide in Documents/quarterly.pptx light green (E2F0D9). Save."),
    ], 1):
        add(impress_task(i, "background", "background", instr,
                         "Ground truth: slides %s have a solid %s background of their own." % (targets, color),
                         deck, {"targets": targets, "color": color}, "medium" if len(targets) > 1 else "easy"))
    for i, (deck, targets, effect, instr) in enumerate([
        ("onboarding", [1, 2, 3, 4], "fade", "Apply a Fade transition to all slides of Documents/onboarding.pptx. Save."),
        ("quarterly", [2], "push", "Give slide 2 of Documents/quarterly.pptx a Push transition. Save."),
        ("launch", [1], "wipe", "Use a Wipe transition on the first slide of Documents/launch.pptx. Save."),
    ], 1):
        add(impress_task(i, "transition", "transition", instr,
                         "No slide has a transition initially. Ground truth: p:transition with p:%s on slides %s." % (effect, targets),
                         deck, {"targets": targets, "effect": effect}, "medium" if len(targets) > 1 else "easy"))
    for i, (deck, pdf, instr) in enumerate([
        ("quarterly", "Documents/quarterly.pdf", "Export Documents/quarterly.pptx as a PDF, Documents/quarterly.pdf."),
        ("lecture", "Desktop/lecture7.pdf", "Export the lecture slides (Documents/lecture.pptx) to PDF on the Desktop as lecture7.pdf."),
        ("onboarding", "Documents/handouts/onboarding.pdf", "Make a PDF of Documents/onboarding.pptx at Documents/handouts/onboarding.pdf."),
    ], 1):
        add(impress_task(i, "export-pdf", "export_pdf", instr,
                         "Ground truth: %s with one page per slide, page i carrying slide i's title." % pdf,
                         deck, {"pdf": pdf}))
    for i, (deck, old, new, count, instr) in enumerate([
        ("onboarding", "Northwind", "Southwind", 1, "The company was renamed: replace 'Northwind' with 'Southwind' on every slide of Documents/onboarding.pptx. Save."),
        ("launch", "sales team", "account managers", 1, "Replace 'sales team' with 'account managers' in Documents/launch.pptx. Save."),
        ("lecture", "by-product", "byproduct", 1, "In Documents/lecture.pptx spell 'by-product' as 'byproduct'. Save."),
    ], 1):
        add(impress_task(i, "find-replace", "find_replace", instr,
                         "%r occurs %d time(s). Ground truth: no %r left, %d x %r." % (old, count, old, count, new),
                         deck, {"old": old, "new": new, "expected_count": count}))
    return out


def write(pack, tasks):
    path = os.path.join(ROOT, pack, "tasks.json")
    ids = [t["task_id"] for t in tasks]
    assert len(ids) == len(set(ids)), "duplicate task ids"
    with open(path + ".tmp", "w", encoding="utf-8") as fh:
        json.dump({"tasks": tasks}, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    os.replace(path + ".tmp", path)
    print("%s: %d tasks" % (path, len(tasks)))


if __name__ == "__main__":
    write("libreoffice_writer", writer_tasks())
    write("libreoffice_impress", impress_tasks())
