import fitz

pdf_path = home_file(S["pdf"])
pdf = fitz.open()
page = pdf.new_page(width=595, height=842)
y = 72
for i, line in enumerate(S["pdf_lines"]):
    page.insert_text((72, y), line, fontsize=18 if i == 0 else 12, fontname="helv")
    y += 30 if i == 0 else 20
pdf.save(pdf_path)
pdf.close()
doc_path = write_report(S["doc"], S["paragraphs"])
launch(["evince", pdf_path])
launch(["libreoffice", "--writer", doc_path])
print("setup: wrote %s (%d lines) and %s (%d placeholders)" % (S["pdf"], len(S["pdf_lines"]), S["doc"], len(S["fills"])))
