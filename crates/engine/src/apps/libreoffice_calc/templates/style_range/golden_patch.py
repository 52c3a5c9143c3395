import copy
import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
ws = wb[S["sheet"]]
for ref in S["cells"]:
    font = copy.copy(ws[ref].font)
    if S["style"] == "bold":
        font.b = True
    elif S["style"] == "italic":
        font.i = True
    else:
        font.u = "single"
    ws[ref].font = font
wb.save(path)
print("golden: %s on %s" % (S["style"], S["range"]))
