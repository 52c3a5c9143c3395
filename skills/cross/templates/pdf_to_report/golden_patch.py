import os
from docx import Document

HOME = "/home/user"
path = os.path.join(HOME, S["doc"])
doc = Document(path)  # copy-then-modify: the golden state is the initial document, edited
done = 0
for fill in S["fills"]:
    for para in doc.paragraphs:
        for run in para.runs:
            if fill["placeholder"] in run.text:
                run.text = run.text.replace(fill["placeholder"], str(fill["value"]))
                done += 1
doc.save(path)
print("golden: filled %d placeholder(s)" % done)
