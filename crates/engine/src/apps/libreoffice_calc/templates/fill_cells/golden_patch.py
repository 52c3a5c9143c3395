import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
ws = wb[S["sheet"]]
for ref, value in S["cells"].items():
    ws[ref] = value
wb.save(path)
print("golden: filled %d cell(s) of %s" % (len(S["cells"]), S["file"]))
