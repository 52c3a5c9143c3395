import os
from openpyxl import load_workbook

HOME = "/home/user"
path = os.path.join(HOME, S["file"])
wb = load_workbook(path)  # copy-then-modify: the golden state is the initial workbook, edited
ws = wb[S["sheet"]]
for ref, value in S["cells"].items():
    ws[ref] = value
wb.save(path)
print("golden: wrote %d cell(s)" % len(S["cells"]))
