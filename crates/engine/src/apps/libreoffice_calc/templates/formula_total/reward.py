import re
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


def range_sum(sheet, formula):
    """The sum of the numbers in the range a SUM formula names (`=SUM(B2:B6)`), None if it names none."""
    m = re.search(r"([A-Z]+\$?[0-9]+:\$?[A-Z]+\$?[0-9]+)", canon(formula))
    if m is None or sheet is None:
        return None
    cells = sheet[m.group(1)]
    return sum(c.value for row in cells for c in row if isinstance(c.value, (int, float)) and not isinstance(c.value, bool))


for ref, want in S["formulas"].items():
    if ws is None:
        rubric.add("%s = %s" % (ref, want), 0.6 * weight, 0, why)
        rubric.add("%s totals %s" % (ref, S["values"][ref]), 0.4 * weight, 0, why)
        continue
    got = ws[ref].value
    value = cached[ref].value if cached is not None else None
    # openpyxl does not evaluate formulas: the formula text is one component; the other is the total
    # it gives over the data now in the sheet (and the value Calc cached, when there is one).
    same_formula = isinstance(got, str) and canon(got) == canon(want)
    rubric.add("%s = %s" % (ref, want), 0.6 * weight, same_formula, "found %r" % (got,))
    total = range_sum(ws, want)
    if value is None:
        value_ok = total is not None and abs(total - S["values"][ref]) < 1e-6
    elif isinstance(value, (int, float)):
        value_ok = abs(value - S["values"][ref]) < 1e-6
    else:
        value_ok = False
    rubric.add("%s totals %s" % (ref, S["values"][ref]), 0.4 * weight, same_formula and value_ok,
               "cached %r, the range sums to %r" % (value, total))
rubric.finish()
