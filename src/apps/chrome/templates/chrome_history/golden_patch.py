import os
import signal
import sqlite3
import time

HISTORY = "/home/user/.config/chromium/Default/History"


def stop_chromium():
    """Chromium holds History with an exclusive lock while it runs: stop it before editing."""
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            with open("/proc/%s/comm" % pid, encoding="utf-8") as fh:
                if fh.read().strip() not in ("chromium", "chrome"):
                    continue
            # Only this home's program: never a process of another home or user.
            with open("/proc/%s/environ" % pid, "rb") as fh:
                env = fh.read().split(b"\0")
            with open("/proc/%s/cmdline" % pid, "rb") as fh:
                cmd = fh.read()
            if b"HOME=/home/user" not in env and b"/home/user/" not in cmd:
                continue
            os.kill(int(pid), signal.SIGTERM)
            for _ in range(50):
                if not os.path.exists("/proc/" + pid):
                    break
                time.sleep(0.1)
        except (OSError, ValueError):
            pass


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
