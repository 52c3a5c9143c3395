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


def put(doc, dotted, value):
    parts = dotted.split(".")
    for part in parts[:-1]:
        if not isinstance(doc.get(part), dict):
            doc[part] = {}
        doc = doc[part]
    doc[parts[-1]] = value


stop_chromium()
path = os.path.join(DEFAULT, "Preferences")
prefs = {}
if os.path.exists(path):
    with open(path, encoding="utf-8") as fh:
        prefs = json.load(fh)
for key, value in list(S.get("preset", {}).items()) + list(S["keep"].items()):
    put(prefs, key, value)
write_json(path, prefs)
# The usual folders of a desktop home: a download location is chosen among existing folders.
for folder in ("Documents", "Downloads"):
    os.makedirs(os.path.join("/home/user", folder), exist_ok=True)
launch(S.get("open", []))
print("setup: merged %d preference(s) and launched chromium" % (len(S.get("preset", {})) + len(S["keep"])))
