import os
import shutil
import sqlite3
import tempfile

HISTORY = "/home/user/.config/chromium/Default/History"
rows = None
problem = ""
# Chromium keeps History locked while it runs: read a copy.
work = tempfile.mkdtemp()
try:
    shutil.copy(HISTORY, os.path.join(work, "History"))
    db = sqlite3.connect(os.path.join(work, "History"))
    rows = {url: (count, visits) for url, count, visits in db.execute(
        "SELECT u.url, u.visit_count, (SELECT COUNT(*) FROM visits v WHERE v.url = u.id) FROM urls u")}
    db.close()
except (OSError, sqlite3.Error) as err:
    problem = "cannot read History: %s" % err
finally:
    shutil.rmtree(work, ignore_errors=True)


def find(url):
    for key, value in (rows or {}).items():
        if key.rstrip("/") == url.rstrip("/"):
            return value
    return None


rubric = Rubric()
gone = 0
for url in S["delete"]:
    found = find(url)
    ok = rows is not None and (found is None or found[1] == 0)
    gone += ok
    rubric.add("history of %s deleted" % url, 0.8 / len(S["delete"]), ok, "%s %s" % ("visits left: %d" % found[1] if found else "no entry", problem))
kept = [url for url in S["keep"] if rows is not None and find(url) is not None]
rubric.add("other history kept", 0.2, len(kept) == len(S["keep"]) and gone > 0, "%d/%d kept" % (len(kept), len(S["keep"])))
rubric.finish()
