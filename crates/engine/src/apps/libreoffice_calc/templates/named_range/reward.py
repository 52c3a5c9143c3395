import os
import openpyxl
path = os.path.join("/home/user", S["file"])
rubric = Rubric()
try:
    wb = openpyxl.load_workbook(path)
    names = {k: v.attr_text for k, v in wb.defined_names.items()}
    why = "names: %s" % json.dumps(names)
except Exception as exc:
    names = {}
    why = "%s: %s" % (type(exc).__name__, exc)
found = {k.lower(): v for k, v in names.items()}.get(S["name"].lower())
rubric.add("name %s defined" % S["name"], 0.4, found is not None, why)
target = "".join(str(found or "").replace("$", "").replace("'", "").split())
rubric.add("%s refers to %s!%s" % (S["name"], S["sheet"], S["range"]), 0.6, target == "%s!%s" % (S["sheet"], S["range"]), "refers to %r" % found)
rubric.finish()
