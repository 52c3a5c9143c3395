# GIMP 2.10's defaults (`gimp --dump-gimprc`): GIMP leaves a setting out of gimprc when it is the default.
DEFAULTS = {"undo-levels": "5", "show-tooltips": "yes", "layer-previews": "yes", "interpolation-type": "cubic",
            "default-threshold": "15", "save-document-history": "yes", "resize-windows-on-zoom": "no",
            "export-color-profile": "yes", "zoom-quality": "high", "filter-tool-max-recent": "10",
            "theme": '"Dark"', "icon-size": "auto", "show-brush-outline": "yes", "show-paint-tool-cursor": "yes",
            "trust-dirty-flag": "no", "layer-preview-size": "medium", "thumbnail-size": "normal",
            "export-exif": "yes", "export-xmp": "yes", "export-iptc": "no", "show-help-button": "yes",
            "num-processors": "2", "single-window-mode": "no", "show-tips": "yes",
            "export-metadata-exif": "yes", "export-metadata-xmp": "yes", "export-metadata-iptc": "no",
            "check-updates": "yes", "save-session-info": "yes", "restore-session": "yes"}

problem = ""
try:
    with open(RC, encoding="utf-8") as fh:
        found = {k: v for k, v, _, _ in forms(fh.read())}
except (OSError, UnicodeDecodeError) as err:
    found, problem = {}, "cannot read gimprc: %s" % err


def value(key):
    return found.get(key, DEFAULTS.get(key))


def same(a, b):
    if a is None:
        return False
    a, b = str(a).strip().strip('"').lower(), str(b).strip().strip('"').lower()
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


rubric = Rubric()
share = 0.8 / len(S["changes"])
hits = 0
for key, want in S["changes"].items():
    ok = same(value(key), want)
    hits += ok
    rubric.add("(%s %s)" % (key, want), share, ok, "found %r %s" % (value(key), problem))
kept = [k for k, v in S["keep"].items() if same(value(k), v)]
rubric.add("other settings preserved", 0.2, hits > 0 and len(kept) == len(S["keep"]),
           "%d/%d kept; changes made: %d" % (len(kept), len(S["keep"]), hits))
rubric.finish()
