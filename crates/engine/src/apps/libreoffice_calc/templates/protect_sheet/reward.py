import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    ws = openpyxl.load_workbook(path)[S["sheet"]]
    on = bool(ws.protection.sheet)
except Exception as exc:
    ws, on = None, False
rubric.add("sheet %s protected" % S["sheet"], 0.8, on, "protection.sheet = %r" % on)
rubric.add("values unchanged", 0.2, on and ws["A1"].value == S["rows"][0][0], "credited once protected")
rubric.finish()
