import openpyxl

path = "/home/user/libreoffice_calc_padded_ids_001.xlsx"
wb = openpyxl.load_workbook(path)
ws = wb.active
for row in range(2, 12):
    ws.cell(row=row, column=2, value=str(ws.cell(row=row, column=1).value).zfill(8))
wb.save(path)
