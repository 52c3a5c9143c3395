import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
ws = wb[S["sheet"]]
for i, row in enumerate(S["expected"]):
    for j, value in enumerate(row):
        ws.cell(row=i + 2, column=j + 1).value = value
wb.save(path)
print("golden: sorted %s by %s %s" % (S["sheet"], S["column"], S["order"]))
