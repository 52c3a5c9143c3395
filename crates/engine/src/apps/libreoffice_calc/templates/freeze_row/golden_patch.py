import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
wb[S["sheet"]].freeze_panes = S["freeze"]
wb.save(path)
print("golden: froze %s at %s" % (S["sheet"], S["freeze"]))
