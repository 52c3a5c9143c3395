import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    ws = openpyxl.load_workbook(path)[S["sheet"]]
    got = [[c.value for c in row] for row in ws.iter_rows(min_row=2, max_row=1 + len(S["expected"]), max_col=len(S["rows"][0]))]
    header = [c.value for c in ws[1]][: len(S["rows"][0])]
    why = ""
except Exception as exc:
    got, header = [], []
    why = "%s: %s" % (type(exc).__name__, exc)
initial = [list(r) for r in S["rows"][1:]]
moved = bool(got) and got != initial
hits = sum(1 for a, b in zip(got, S["expected"]) if a == b) if moved else 0
rubric.add("rows in %s order of column %s" % (S["order"], S["column"]), 0.6, got == S["expected"], "%d/%d rows in place %s" % (hits, len(S["expected"]), why))
rubric.add("rows moved towards the order", 0.3, fraction(hits, len(S["expected"])), "counted only once the rows moved")
rubric.add("header kept on top", 0.1, moved and header == S["rows"][0], "header %r" % header)
rubric.finish()
