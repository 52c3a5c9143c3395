import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
# Tolerant of the state it finds: protecting twice is harmless, and a sheet name that is not
# there leaves the workbook unchanged (the reward then names the unprotected sheet).
if S["sheet"] in wb.sheetnames:
    wb[S["sheet"]].protection.sheet = True
    print("golden: protected %s" % S["sheet"])
else:
    print("golden: no sheet %r among %s; nothing protected" % (S["sheet"], wb.sheetnames))
wb.save(path)
