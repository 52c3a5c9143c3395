from openpyxl import Workbook

book = home_file(S["sheet_file"])
wb = Workbook()
ws = wb.active
ws.title = S["sheet"]
for row in S["rows"]:
    ws.append(row)
wb.save(book)
doc_path = write_report(S["doc"], S["paragraphs"])
launch(["libreoffice", "--calc", book])
launch(["libreoffice", "--writer", doc_path])
print("setup: wrote %s (%d rows) and %s (%d placeholders)" % (S["sheet_file"], len(S["rows"]), S["doc"], len(S["fills"])))
