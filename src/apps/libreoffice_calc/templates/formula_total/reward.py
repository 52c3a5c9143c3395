import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
ws = cached = None
why = ""
try:
    ws = openpyxl.load_workbook(path)[S["sheet"]]
    cached = openpyxl.load_workbook(path, data_only=True)[S["sheet"]]
except Exception as exc:
    why = "%s: %s" % (type(exc).__name__, exc)


def canon(f):
    return "".join(str(f or "").upper().split()).replace("$", "")


weight = 1.0 / max(1, len(S["formulas"]))
for ref, want in S["formulas"].items():
    if ws is None:
        rubric.add("%s = %s" % (ref, want), weight, 0, why)
        continue
    got = ws[ref].value
    value = cached[ref].value if cached is not None else None
    # openpyxl does not evaluate formulas: the formula text decides; a value Calc cached must agree.
    same_formula = isinstance(got, str) and canon(got) == canon(want)
    if value is None:
        value_ok = True
    elif isinstance(value, (int, float)):
        value_ok = abs(value - S["values"][ref]) < 1e-6
    else:
        value_ok = False
    rubric.add("%s = %s" % (ref, want), weight, same_formula and value_ok, "found %r (cached %r)" % (got, value))
rubric.finish()
