import os
import urllib.parse
import xml.etree.ElementTree as ET

HOME = "/home/user"
t = S["target"]
path = os.path.join(HOME, t["path"])


def local(entry, base):
    """A playlist entry as an absolute local path (file:// URIs unquoted, relative paths resolved)."""
    entry = entry.strip()
    if entry.startswith("file://"):
        entry = urllib.parse.unquote(urllib.parse.urlparse(entry).path)
    return os.path.normpath(os.path.join(base, entry))


def read(path):
    """(format, entries) of a playlist file; format None when it is not a playlist VLC writes."""
    with open(path, "rb") as fh:
        data = fh.read()
    base = os.path.dirname(path)
    text = data.decode("utf-8", errors="replace")
    if text.lstrip().startswith("<?xml") or "<playlist" in text[:400]:
        try:
            root = ET.fromstring(data)
        except ET.ParseError:
            return None, []
        locs = [e.text or "" for e in root.iter() if e.tag.endswith("}location") or e.tag == "location"]
        return "xspf", [local(l, base) for l in locs]
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    return "m3u", [local(l, base) for l in lines]


want = [os.path.normpath(os.path.join(HOME, e)) for e in t["entries"]]
rubric = Rubric()
if not os.path.isfile(path):
    rubric.add("playlist saved as ~/%s" % t["path"], 1.0, False, "no file at %s" % path)
else:
    try:
        fmt, got = read(path)
    except OSError as err:
        fmt, got = None, []
    rubric.add("saved as a %s playlist" % t["format"].upper(), 0.2, fmt == t["format"] and bool(got), "format %s, %d entries" % (fmt, len(got)))
    present = [w for w in want if w in got]
    rubric.add("every track listed", 0.5, len(present) / len(want), "%d/%d: missing %s" % (len(present), len(want), [os.path.basename(w) for w in want if w not in got]))
    in_order = [g for g in got if g in want] == want
    rubric.add("tracks in order", 0.2, in_order, "order %s" % [os.path.basename(g) for g in got])
    extra = [g for g in got if g not in want]
    rubric.add("no other tracks", 0.1, bool(present) and not extra, "extra: %s" % [os.path.basename(g) for g in extra])
rubric.finish()
