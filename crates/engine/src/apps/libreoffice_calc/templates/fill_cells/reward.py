import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    ws = openpyxl.load_workbook(path)[S["sheet"]]
except Exception as exc:  # a missing or unreadable workbook scores 0 on every check
    ws = None
    why = "%s: %s" % (type(exc).__name__, exc)
weight = 1.0 / max(1, len(S["cells"]))
for ref, want in S["cells"].items():
    got = ws[ref].value if ws is not None else None
    same = got == want or (isinstance(want, (int, float)) and isinstance(got, (int, float)) and abs(got - want) < 1e-9)
    rubric.add("%s = %s" % (ref, json.dumps(want)), weight, same, "found %s" % (json.dumps(got, default=str) if ws is not None else why))
rubric.finish()
