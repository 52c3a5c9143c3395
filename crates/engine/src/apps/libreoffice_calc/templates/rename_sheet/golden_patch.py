import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
# Tolerant of the state it finds: a workbook already renamed stays as it is, and a sheet name
# that is not there leaves the workbook unchanged (the reward then names what is missing).
if S["sheet"] in wb.sheetnames and S["new_name"] not in wb.sheetnames:
    wb[S["sheet"]].title = S["new_name"]
    print("golden: renamed %s to %s" % (S["sheet"], S["new_name"]))
else:
    print("golden: sheets are %s; nothing to rename" % wb.sheetnames)
wb.save(path)
