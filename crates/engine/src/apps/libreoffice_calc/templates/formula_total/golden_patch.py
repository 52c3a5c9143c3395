import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
ws = wb[S["sheet"]]
for ref, formula in S["formulas"].items():
    ws[ref] = formula
wb.save(path)
print("golden: wrote %d formula(s) into %s" % (len(S["formulas"]), S["file"]))
