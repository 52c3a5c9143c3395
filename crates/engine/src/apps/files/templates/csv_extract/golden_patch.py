import csv
import os
output = os.path.join("/home/user", S["output"])
os.makedirs(os.path.dirname(output), exist_ok=True)
with open(output, "w", newline="", encoding="utf-8") as fh:
    writer = csv.writer(fh)
    writer.writerow(S["columns"])
    writer.writerows(S["expected_rows"])
print("golden: wrote %s" % S["output"])
