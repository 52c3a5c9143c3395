#!/usr/bin/env python3
"""State reader of the chrome pack (Chromium's profile at ~/.config/chromium): argv[1] is the home.

Prints one JSON object: prefs (the settings part of Default/Preferences as dotted keys), bookmarks
(one tree per root: {name, url} or {name, children}), history (one row per page, ISO times) and tabs
(the open tabs of the last session, from Default/Sessions). A file that cannot be read is
{"error": ...} in its place.
"""
import datetime
import glob
import json
import os
import shutil
import sqlite3
import struct
import sys
import tempfile

# Preference subtrees that are settings (everything else is Chromium's bookkeeping).
PREFIXES = ("homepage", "browser.show_home_button", "browser.enable_spellchecking", "session.",
            "download.", "webkit.webprefs.", "bookmark_bar.", "enable_do_not_track",
            "credentials_enable", "autofill.profile_enabled", "autofill.credit_card_enabled",
            "profile.cookie_controls_mode", "profile.default_content_setting_values.", "search.suggest",
            "safebrowsing.enabled", "safebrowsing.enhanced", "intl.", "spellcheck.dictionaries",
            "default_search_provider_data.template_url_data.keyword",
            "default_search_provider_data.template_url_data.short_name",
            "default_search_provider_data.template_url_data.url")
EPOCH = datetime.datetime(1601, 1, 1, tzinfo=datetime.timezone.utc)


def flatten(node, prefix, out):
    if isinstance(node, dict) and node:
        for key, value in node.items():
            flatten(value, prefix + "." + key if prefix else key, out)
    else:
        out[prefix] = node


def prefs(default):
    try:
        with open(os.path.join(default, "Preferences"), encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as err:
        return {"error": str(err)}
    flat = {}
    flatten(doc, "", flat)
    return {k: v for k, v in sorted(flat.items()) if k.startswith(PREFIXES) and "window_placement" not in k}


def tree(node):
    if node.get("type") == "folder":
        return {"name": node.get("name"), "children": [tree(c) for c in node.get("children", [])]}
    return {"name": node.get("name"), "url": node.get("url")}


def bookmarks(default):
    path = os.path.join(default, "Bookmarks")
    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as fh:
            roots = json.load(fh).get("roots", {})
    except (OSError, ValueError) as err:
        return {"error": str(err)}
    return {k: tree(v)["children"] for k, v in roots.items() if isinstance(v, dict) and "children" in v}


def chrome_time(value):
    if not value:
        return None
    return (EPOCH + datetime.timedelta(microseconds=int(value))).isoformat()


def history(default):
    path = os.path.join(default, "History")
    if not os.path.exists(path):
        return []
    work = tempfile.mkdtemp()
    try:
        shutil.copy(path, os.path.join(work, "History"))
        db = sqlite3.connect(os.path.join(work, "History"))
        rows = db.execute("SELECT u.url, u.title, u.visit_count, u.last_visit_time, "
                          "(SELECT COUNT(*) FROM visits v WHERE v.url = u.id) FROM urls u ORDER BY u.url").fetchall()
        db.close()
    except (OSError, sqlite3.Error) as err:
        return {"error": str(err)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return [{"url": u, "title": t, "visit_count": c, "visits": n, "last_visit": chrome_time(lv)}
            for u, t, c, lv, n in rows]


def pickle_string(data, pos, wide=False):
    n = struct.unpack_from("<i", data, pos)[0]
    pos += 4
    size = n * 2 if wide else n
    raw = data[pos:pos + size]
    pos += (size + 3) & ~3
    return raw.decode("utf-16-le" if wide else "utf-8", "replace"), pos


def tabs(default):
    """Open tabs from the newest SNSS session file: navigations (command 6), the selected
    navigation (7) and closed tabs (16)."""
    files = sorted(glob.glob(os.path.join(default, "Sessions", "Session_*")), key=os.path.getmtime)
    if not files:
        return []
    try:
        with open(files[-1], "rb") as fh:
            data = fh.read()
    except OSError as err:
        return {"error": str(err)}
    if data[:4] != b"SNSS":
        return {"error": "not an SNSS session file"}
    navs, selected, closed, order = {}, {}, set(), []
    pos = 8
    while pos + 3 <= len(data):
        size = struct.unpack_from("<H", data, pos)[0]
        cmd, body = data[pos + 2], data[pos + 3:pos + 2 + size]
        pos += 2 + size
        try:
            if cmd == 6 and len(body) >= 12:
                tab, index = struct.unpack_from("<ii", body, 4)
                url, p = pickle_string(body, 12)
                title, _ = pickle_string(body, p, wide=True)
                navs.setdefault(tab, {})[index] = {"url": url, "title": title}
                if tab not in order:
                    order.append(tab)
            elif cmd == 7 and len(body) >= 8:
                tab, index = struct.unpack_from("<ii", body, 0)
                selected[tab] = index
            elif cmd == 16 and len(body) >= 4:
                closed.add(struct.unpack_from("<i", body, 0)[0])
        except (struct.error, IndexError):
            continue
    out = []
    for tab in order:
        if tab in closed or tab not in navs:
            continue
        entries = navs[tab]
        index = selected.get(tab, max(entries))
        out.append(entries.get(index) or entries[max(entries)])
    return out


def main(home):
    default = os.path.join(home, ".config", "chromium", "Default")
    out = {"prefs": prefs(default) if os.path.isdir(default) else {}, "bookmarks": bookmarks(default),
           "history": history(default), "tabs": tabs(default)}
    json.dump(out, sys.stdout, ensure_ascii=False, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: state.py HOME")
    main(sys.argv[1])
