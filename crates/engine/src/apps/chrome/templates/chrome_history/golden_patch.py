import os
import sqlite3

HISTORY = "/home/user/.config/chromium/Default/History"


stop_chromium()
db = sqlite3.connect(HISTORY)
removed = 0
for url in S["delete"]:
    ids = [row[0] for row in db.execute("SELECT id FROM urls WHERE url = ?", (url,))]
    for uid in ids:
        db.execute("DELETE FROM visits WHERE url = ?", (uid,))
        db.execute("DELETE FROM urls WHERE id = ?", (uid,))
        removed += 1
db.commit()
db.close()
print("golden: deleted %d history entries" % removed)
