import os
import subprocess
import openpyxl
from openpyxl.styles import Font
path = os.path.join("/home/user", S["file"])
os.makedirs(os.path.dirname(path), exist_ok=True)
wb = openpyxl.Workbook()
ws = wb.active
ws.title = S["sheet"]
for row in S["rows"]:
    ws.append(row)
for cell in ws[1]:
    cell.font = Font(bold=True)
wb.save(path)
subprocess.Popen(["libreoffice", "--calc", path], env={**os.environ, "DISPLAY": ":0"})
print("setup: wrote %s and opened it in Calc" % S["file"])
