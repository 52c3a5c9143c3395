#!/usr/bin/env python3
"""State reader of the vlc pack: argv[1] is the environment's home on the host.

Prints one JSON object:
  prefs:     the active (uncommented) keys of ~/.config/vlc/vlcrc as {"key": "value"} (VLC writes a
             default commented out, so a key not listed has VLC's default)
  playlists: every .xspf / .m3u / .m3u8 under the home (at most 40) as {path: {format, entries:
             [paths relative to the home when inside it], titles}} or {error}
  media:     audio/video files under ~/Music and ~/Videos as {path: size}
"""
import json
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET

MAX_PLAYLISTS = 40
MEDIA = (".wav", ".y4m", ".mp3", ".ogg", ".flac", ".mp4", ".mkv", ".webm", ".avi")
SKIP = {".cache", ".local", ".thunderbird", ".mozilla"}


def vlcrc(path):
    out = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = re.match(r"^([A-Za-z0-9_-]+)=(.*)$", line.rstrip("\n"))
                if m and m.group(1) not in out:
                    out[m.group(1)] = m.group(2)
    except OSError as err:
        return {"error": str(err)}
    return out


def rel(home, entry, base):
    entry = entry.strip()
    if entry.startswith("file://"):
        entry = urllib.parse.unquote(urllib.parse.urlparse(entry).path)
    path = os.path.normpath(os.path.join(base, entry))
    return os.path.relpath(path, home) if path.startswith(home + os.sep) else path


def playlist(home, path):
    base = os.path.dirname(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        return {"error": str(err)}
    if path.endswith(".xspf"):
        try:
            root = ET.fromstring(data)
        except ET.ParseError as err:
            return {"error": "not XML: %s" % err}
        tracks = [t for t in root.iter() if t.tag.split("}")[-1] == "track"]
        entries, titles = [], []
        for t in tracks:
            loc = next((c.text or "" for c in t if c.tag.split("}")[-1] == "location"), "")
            title = next((c.text or "" for c in t if c.tag.split("}")[-1] == "title"), "")
            entries.append(rel(home, loc, base))
            titles.append(title)
        return {"format": "xspf", "entries": entries, "titles": titles}
    text = data.decode("utf-8", errors="replace")
    entries = [rel(home, l, base) for l in text.splitlines() if l.strip() and not l.startswith("#")]
    titles = [l.split(",", 1)[1] for l in text.splitlines() if l.startswith("#EXTINF:") and "," in l]
    return {"format": "m3u", "entries": entries, "titles": titles}


def main(home):
    home = os.path.normpath(home)
    playlists, media = {}, {}
    for dirpath, dirnames, filenames in os.walk(home):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            r = os.path.relpath(path, home)
            low = name.lower()
            if low.endswith((".xspf", ".m3u", ".m3u8")) and len(playlists) < MAX_PLAYLISTS:
                playlists[r] = playlist(home, path)
            elif low.endswith(MEDIA):
                media[r] = os.path.getsize(path)
    state = {"prefs": vlcrc(os.path.join(home, ".config", "vlc", "vlcrc")), "playlists": playlists, "media": media}
    json.dump(state, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
