"""Writes tasks.json: the shipped libreoffice_calc tasks (4 per template, deterministic).

Run: python3 crates/engine/src/apps/libreoffice_calc/generate_tasks.py  (from the repository root or anywhere)."""
import json
import os

BOOKS = [
    ("sales", "Sales", ["Region", "Q1", "Q2", "Q3"], ["North", "South", "East", "West", "Central"]),
    ("budget", "Budget", ["Category", "Jan", "Feb", "Mar"], ["Rent", "Payroll", "Travel", "Software", "Supplies"]),
    ("grades", "Grades", ["Student", "Quiz", "Midterm", "Final"], ["Ada", "Ben", "Chen", "Dana", "Eli"]),
    ("inventory", "Stock", ["Item", "StoreA", "StoreB", "StoreC"], ["Pens", "Paper", "Toner", "Folders", "Tape"]),
]
COLS = "ABCD"


def book(i):
    stem, sheet, header, labels = BOOKS[i % 4]
    rows = [header]
    for r, label in enumerate(labels):
        base = 10 + (i * 17 + r * 29) % 90
        rows.append([label, base, base + 7 + r * 3 + i, (base * 2 + i) % 97 + 3])
    return stem, sheet, rows, "Documents/%s-%02d.xlsx" % (stem, i + 1)


def task(template, i, instruction, context, slots, difficulty="easy"):
    return {
        "task_id": "libreoffice_calc_%s_%03d" % (template.replace("_", "-"), i + 1),
        "task_instruction": instruction,
        "context": context,
        "difficulty": difficulty,
        "domain": "libreoffice_calc",
        "domains": ["libreoffice_calc"],
        "platform": "desktop",
        "scenario": "Spreadsheets",
        "task_type": "single_app",
        "template": template,
        "slots": slots,
    }


def base(i):
    stem, sheet, rows, file = book(i)
    return {"file": file, "sheet": sheet, "rows": rows}, sheet, rows, file


out = []
for i in range(4):
    s, sheet, rows, file = base(i)
    n = 1 + i % 3
    cells = {"E1": ["Q4", "Apr", "Bonus", "StoreD"][i]}
    for r in range(n):
        cells["E%d" % (r + 2)] = 100 + (i * 37 + r * 13) % 400
    said = ", ".join("%s %s" % (rows[r + 1][0], cells["E%d" % (r + 2)]) for r in range(n))
    out.append(task("fill_cells", i, "In %s (open in Calc), add a column '%s' in E with %s, then save the file." % (file, cells["E1"], said),
                    "Setup writes %s (sheet %s, A1:D6) and opens it in Calc. Ground truth: %s. Checkpoints: one per cell." % (file, sheet, json.dumps(cells)),
                    dict(s, cells=cells), ["easy", "medium", "hard", "easy"][i % 4]))
for i in range(4):
    s, sheet, rows, file = base(i + 4)
    cols = COLS[1:][: 1 + i % 3]
    formulas = {"%s7" % c: "=SUM(%s2:%s6)" % (c, c) for c in cols}
    values = {"%s7" % c: sum(r[COLS.index(c)] for r in rows[1:]) for c in cols}
    out.append(task("formula_total", i, "In %s, put the total of each of column%s %s in row 7 using SUM formulas, then save." % (file, "s" if len(cols) > 1 else "", ", ".join(cols)),
                    "Setup writes %s (A1:D6). Ground truth: %s (values %s). Checkpoints: one per formula." % (file, json.dumps(formulas), json.dumps(values)),
                    dict(s, formulas=formulas, values=values), "medium"))
for i, (rng, style) in enumerate([("A2:A6", "bold"), ("B2:D2", "italic"), ("A2:A6", "underline"), ("B6:D6", "bold")]):
    s, sheet, rows, file = base(i + 8)
    a, b = rng.split(":")
    refs = [c + str(r) for c in COLS[COLS.index(a[0]): COLS.index(b[0]) + 1] for r in range(int(a[1:]), int(b[1:]) + 1)]
    out.append(task("style_range", i, "Make the cells %s of the %s sheet in %s %s, then save." % (rng, sheet, file, style),
                    "Setup writes %s. Ground truth: %s %s. Checkpoints: cells styled (0.8), values unchanged (0.2)." % (file, rng, style),
                    dict(s, range=rng, cells=refs, style=style)))
for i, (rng, kind) in enumerate([("B2:B6", "percent"), ("C2:C6", "decimal"), ("B2:D2", "currency"), ("D2:D6", "decimal")]):
    s, sheet, rows, file = base(i + 12)
    a, b = rng.split(":")
    refs = [c + str(r) for c in COLS[COLS.index(a[0]): COLS.index(b[0]) + 1] for r in range(int(a[1:]), int(b[1:]) + 1)]
    word = {"percent": "as percentages", "decimal": "as numbers with two decimals", "currency": "as US dollar currency"}[kind]
    out.append(task("number_format", i, "Format %s in %s %s, then save." % (rng, file, word),
                    "Setup writes %s. Ground truth: %s number format %s. Checkpoints: cells formatted (0.8), values unchanged (0.2)." % (file, rng, kind),
                    dict(s, range=rng, cells=refs, kind=kind), "medium"))
for i, (name, rng) in enumerate([("FirstQuarter", "B2:B6"), ("Labels", "A2:A6"), ("Totals", "D2:D6"), ("Header", "A1:D1")]):
    s, sheet, rows, file = base(i + 16)
    out.append(task("named_range", i, "In %s, define a named range '%s' for %s!%s, then save." % (file, name, sheet, rng),
                    "Setup writes %s. Ground truth: defined name %s = %s!$..$ (%s). Checkpoints: name (0.4), reference (0.6)." % (file, name, sheet, rng),
                    dict(s, name=name, range=rng), "medium"))
for i, (col, order) in enumerate([("B", "ascending"), ("C", "descending"), ("A", "ascending"), ("D", "descending")]):
    s, sheet, rows, file = base(i + 20)
    k = COLS.index(col)
    expected = sorted(rows[1:], key=lambda r: r[k], reverse=order == "descending")
    if expected == rows[1:]:
        expected = sorted(rows[1:], key=lambda r: r[k], reverse=order != "descending")
        order = "descending" if order == "ascending" else "ascending"
    out.append(task("sort_column", i, "Sort the rows of the %s sheet in %s by column %s (%s) in %s order, keeping the header row on top; save." % (sheet, file, col, rows[0][k], order),
                    "Setup writes %s. Ground truth rows: %s. Checkpoints: fully sorted (0.6), rows in place (0.3), header (0.1)." % (file, json.dumps(expected)),
                    dict(s, column=col, order=order, expected=expected), "medium"))
for i, new in enumerate(["Summary", "Year2025", "Archive", "Final"]):
    s, sheet, rows, file = base(i + 24)
    out.append(task("rename_sheet", i, "Rename the sheet '%s' in %s to '%s' and save." % (sheet, file, new),
                    "Setup writes %s with one sheet %s. Ground truth: the sheet is named %s. Checkpoints: new name (0.6), old gone (0.2), data kept (0.2)." % (file, sheet, new),
                    dict(s, new_name=new)))
for i, freeze in enumerate(["A2", "B1", "A2", "B1"]):
    s, sheet, rows, file = base(i + 28)
    what = "the header row" if freeze == "A2" else "the first column"
    out.append(task("freeze_row", i, "In %s, freeze %s of the %s sheet so it stays visible while scrolling, then save." % (file, what, sheet),
                    "Setup writes %s. Ground truth: freeze_panes %s. Checkpoints: frozen (0.8), values (0.2)." % (file, freeze),
                    dict(s, freeze=freeze)))
for i in range(4):
    s, sheet, rows, file = base(i + 32)
    out.append(task("protect_sheet", i, "Protect the %s sheet of %s (no password needed) and save the file." % (sheet, file),
                    "Setup writes %s. Ground truth: sheet protection on. Checkpoints: protected (0.8), values (0.2)." % file,
                    dict(s), "easy"))
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "tasks.json"), "w", encoding="utf-8") as fh:
    json.dump({"tasks": out}, fh, indent=1, ensure_ascii=False)
    fh.write("\n")
print("wrote %d tasks" % len(out))
