import csv
import os
rows = []
try:
    with open(os.path.join("/home/user", S["output"]), newline="", encoding="utf-8") as fh:
        rows = [[cell.strip() for cell in row] for row in csv.reader(fh) if row]
except OSError:
    rows = []
header = [norm(c) for c in rows[0]] if rows else []
body = [tuple(r) for r in rows[1:]]
expected = [tuple(str(c) for c in r) for r in S["expected_rows"]]
hits = len([r for r in expected if r in body])
extra = len([r for r in body if r not in expected])
rubric = Rubric()
rubric.add("header " + ",".join(S["columns"]), 0.2, header == [norm(c) for c in S["columns"]], "found %s" % json.dumps(header))
rubric.add("expected rows present", 0.6, fraction(hits, len(expected)), "%d/%d expected rows" % (hits, len(expected)))
rubric.add("no unexpected rows", 0.2, extra == 0 and hits > 0, "%d unexpected row(s)" % extra)
rubric.finish()
