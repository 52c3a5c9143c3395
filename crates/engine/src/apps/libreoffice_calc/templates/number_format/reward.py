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


def ok(fmt):
    fmt = fmt or ""
    if S["kind"] == "percent":
        return "%" in fmt
    if S["kind"] == "currency":
        return "$" in fmt and "%" not in fmt
    return "0.00" in fmt and "%" not in fmt and "$" not in fmt


hits = [ref for ref in S["cells"] if ws is not None and ok(ws[ref].number_format)]
found = ws[S["cells"][0]].number_format if ws is not None else why
rubric.add("%s format on %s" % (S["kind"], S["range"]), 0.8, fraction(len(hits), len(S["cells"])), "%d/%d cells; first: %r" % (len(hits), len(S["cells"]), found))
kept = ws is not None and all(ws.cell(row=i + 1, column=j + 1).value == v for i, row in enumerate(S["rows"]) for j, v in enumerate(row))
rubric.add("values unchanged", 0.2, kept and len(hits) > 0, "credited once the format is applied")
rubric.finish()
