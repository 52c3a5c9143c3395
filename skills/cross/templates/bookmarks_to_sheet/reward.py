import os
from openpyxl import load_workbook

HOME = "/home/user"


def cell_text(ws, ref):
    value = ws[ref].value
    return "" if value is None else " ".join(str(value).split())


ws = None
try:
    wb = load_workbook(os.path.join(HOME, S["file"]), data_only=True)
    ws = wb[S["sheet"]] if S["sheet"] in wb.sheetnames else None
except Exception as err:  # a missing or unreadable workbook scores 0, it is not a crash
    print("reward: cannot read %s: %s" % (S["file"], err))
rubric = Rubric()
n = len(S["bookmarks"])
progress = 0
for i, mark in enumerate(S["bookmarks"]):
    row = i + 2
    name = cell_text(ws, "A%d" % row) if ws is not None else ""
    url = cell_text(ws, "B%d" % row) if ws is not None else ""
    # A URL typed without its trailing slash is the same address.
    url_ok = url.rstrip("/") == mark["url"].rstrip("/")
    progress += (name == mark["name"]) + url_ok
    rubric.add("row %d name %r" % (row, mark["name"]), 0.4 / n, name == mark["name"], "A%d reads %r" % (row, name))
    rubric.add("row %d url" % row, 0.4 / n, url_ok, "B%d reads %r" % (row, url))
rest_empty = ws is not None and all(
    cell_text(ws, "%s%d" % (col, row)) == "" for row in range(n + 2, n + 12) for col in "ABC")
header = ws is not None and cell_text(ws, "A1") == "Name" and cell_text(ws, "B1") == "URL"
rubric.add("header kept, no other rows", 0.2, progress > 0 and rest_empty and header,
           "header %s, rows after %d empty: %s" % (header, n + 1, rest_empty))
rubric.finish()
