import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    ws = openpyxl.load_workbook(path)[S["sheet"]]
    why = ""
except Exception as exc:
    ws = None
    why = "%s: %s" % (type(exc).__name__, exc)


def styled(cell):
    f = cell.font
    return bool({"bold": f.b, "italic": f.i, "underline": f.u}[S["style"]])


hits = [ref for ref in S["cells"] if ws is not None and styled(ws[ref])]
rubric.add("%s on %s" % (S["style"], S["range"]), 0.8, fraction(len(hits), len(S["cells"])), "%d/%d cells %s" % (len(hits), len(S["cells"]), why))
kept = ws is not None and all(ws.cell(row=i + 1, column=j + 1).value == v for i, row in enumerate(S["rows"]) for j, v in enumerate(row))
rubric.add("values unchanged", 0.2, kept and len(hits) > 0, "credited once the format is applied")
rubric.finish()
