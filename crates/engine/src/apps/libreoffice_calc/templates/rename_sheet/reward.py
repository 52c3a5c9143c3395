import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    wb = openpyxl.load_workbook(path)
    names = wb.sheetnames
except Exception as exc:
    wb, names = None, []
rubric.add("a sheet named %s" % S["new_name"], 0.6, S["new_name"] in names, "sheets %r" % names)
rubric.add("no sheet named %s any more" % S["sheet"], 0.2, wb is not None and S["sheet"] not in names, "")
kept = S["new_name"] in names and wb[S["new_name"]]["A1"].value == S["rows"][0][0]
rubric.add("its data kept", 0.2, kept, "")
rubric.finish()
