import os
import openpyxl
path = os.path.join("/home/user", S["file"])
wb = openpyxl.load_workbook(path)
ws = wb[S["sheet"]]
fmt = {"percent": "0.00%", "decimal": "#,##0.00", "currency": '"$"#,##0.00'}[S["kind"]]
for ref in S["cells"]:
    ws[ref].number_format = fmt
wb.save(path)
print("golden: %s format on %s" % (S["kind"], S["range"]))
