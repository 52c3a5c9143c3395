import json
import os
import signal
import subprocess
import time

PROFILE = "/home/user/.config/chromium"
DEFAULT = os.path.join(PROFILE, "Default")


def stop_chromium():
    """Chromium rewrites Preferences and Bookmarks when it exits: stop it before touching them."""
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
    for name in ("SingletonLock", "SingletonSocket", "SingletonCookie"):
        try:
            os.remove(os.path.join(PROFILE, name))
        except OSError:
            pass


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=3)
    os.replace(path + ".tw-tmp", path)


def launch(urls):
    args = ["chromium", "--user-data-dir=" + PROFILE, "--no-first-run", "--no-default-browser-check"] + list(urls)
    subprocess.Popen(args, env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

ROOTS = {"bookmark_bar": "Bookmarks bar", "other": "Other bookmarks", "synced": "Mobile bookmarks"}
NOW = int((time.time() + 11644473600) * 1000000)  # Chromium time: microseconds since 1601-01-01
next_id = [4]


def node(item):
    next_id[0] += 1
    out = {"date_added": str(NOW), "date_last_used": "0", "id": str(next_id[0]), "name": item["name"]}
    if "children" in item:
        out.update({"children": [node(c) for c in item["children"]], "date_modified": str(NOW), "type": "folder"})
    else:
        out.update({"type": "url", "url": item["url"]})
    return out


stop_chromium()
roots = {}
for i, (key, title) in enumerate(ROOTS.items()):
    roots[key] = {"children": [node(c) for c in S["tree"].get(key, [])], "date_added": str(NOW),
                  "date_modified": "0", "id": str(i + 1), "name": title, "type": "folder"}
write_json(os.path.join(DEFAULT, "Bookmarks"), {"checksum": "", "roots": roots, "version": 1})
prefs_path = os.path.join(DEFAULT, "Preferences")
prefs = {}
if os.path.exists(prefs_path):
    with open(prefs_path, encoding="utf-8") as fh:
        prefs = json.load(fh)
prefs.setdefault("bookmark_bar", {})["show_on_all_tabs"] = True
write_json(prefs_path, prefs)
launch(S.get("open", []))
print("setup: wrote %d bookmark(s) and launched chromium" % (next_id[0] - 4))
