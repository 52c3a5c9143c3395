# The chrome pack's prelude (crates/engine/src/apps/chrome/prelude.py): joined, after
# skills/_common/desktop.py, in front of every chrome template's initial_setup.py and
# golden_patch.py at compile time, so a rendered script is still one self-contained file.
import json
import os

PROFILE = "/home/user/.config/chromium"
DEFAULT = os.path.join(PROFILE, "Default")


def stop_chromium():
    """Chromium rewrites Preferences and Bookmarks when it exits and holds History locked while it
    runs: stop it before touching them, then clear its single-instance lock files."""
    stop_app("chromium", "chrome")
    for name in ("SingletonLock", "SingletonSocket", "SingletonCookie"):
        try:
            os.remove(os.path.join(PROFILE, name))
        except OSError:
            pass


def write_json(path, doc):
    write_atomic(path, json.dumps(doc, indent=3))


def put(doc, dotted, value):
    """Sets the dotted key of a Preferences document, making the objects on its way."""
    parts = dotted.split(".")
    for part in parts[:-1]:
        if not isinstance(doc.get(part), dict):
            doc[part] = {}
        doc = doc[part]
    doc[parts[-1]] = value


def launch(urls):
    start_app(["chromium", "--user-data-dir=" + PROFILE, "--no-first-run", "--no-default-browser-check"] + list(urls))
