import openpyxl

path = "/home/user/libreoffice_calc_padded_ids_001.xlsx"
ws = openpyxl.load_workbook(path).active
cells = [ws.cell(row=r, column=2).value for r in range(2, 12)]
ids = [ws.cell(row=r, column=1).value for r in range(2, 12)]
score = 0.0
filled = all(c is not None for c in cells)
print(("PASS" if filled else "FAIL") + ": B2:B11 filled (0.4)")
score += 0.4 if filled else 0.0
width = filled and all(len(str(c)) == 8 for c in cells)
print(("PASS" if width else "FAIL") + ": every value has 8 characters (0.3)")
score += 0.3 if width else 0.0
equal = filled and all(str(c) == str(i).zfill(8) for c, i in zip(cells, ids))
print(("PASS" if equal else "FAIL") + ": values equal the padded IDs (0.3)")
score += 0.3 if equal else 0.0
print(f"Score: {score:.2f}/1.0")
print(f"REWARD: {score:.2f}")
