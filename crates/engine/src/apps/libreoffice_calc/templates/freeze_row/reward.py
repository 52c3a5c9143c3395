import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    ws = openpyxl.load_workbook(path)[S["sheet"]]
    got = ws.freeze_panes
except Exception as exc:
    ws, got = None, "%s: %s" % (type(exc).__name__, exc)
rubric.add("panes frozen at %s" % S["freeze"], 0.8, got == S["freeze"], "freeze_panes %r" % got)
rubric.add("values unchanged", 0.2, got == S["freeze"] and ws["A1"].value == S["rows"][0][0], "credited once frozen")
rubric.finish()
