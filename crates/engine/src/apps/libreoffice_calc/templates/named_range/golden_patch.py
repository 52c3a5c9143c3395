import os
import openpyxl
from openpyxl.workbook.defined_name import DefinedName
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
a, b = S["range"].split(":")
ref = "$%s:$%s" % ("$".join([a.rstrip("0123456789"), a.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")]), "$".join([b.rstrip("0123456789"), b.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")]))
wb.defined_names[S["name"]] = DefinedName(S["name"], attr_text="%s!%s" % (S["sheet"], ref))
wb.save(path)
print("golden: %s = %s!%s" % (S["name"], S["sheet"], ref))
