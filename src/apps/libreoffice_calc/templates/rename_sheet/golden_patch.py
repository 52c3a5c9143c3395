import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
wb[S["sheet"]].title = S["new_name"]
wb.save(path)
print("golden: renamed %s to %s" % (S["sheet"], S["new_name"]))
