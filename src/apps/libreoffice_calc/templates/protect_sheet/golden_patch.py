import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
wb[S["sheet"]].protection.sheet = True
wb.save(path)
print("golden: protected %s" % S["sheet"])
