import openpyxl

wb = openpyxl.Workbook()
ws = wb.active
ws["A1"] = "ID"
for i, value in enumerate([7, 42, 305, 1999, 12, 880, 4, 65000, 123456, 77], start=2):
    ws.cell(row=i, column=1, value=value)
wb.save("/home/user/libreoffice_calc_padded_ids_001.xlsx")
