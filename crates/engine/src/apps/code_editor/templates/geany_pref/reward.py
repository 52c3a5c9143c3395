import configparser
import os

HOME = "/home/user"
path = os.path.join(HOME, S["file"])
cp = None
problem = ""
try:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=",), strict=False)
    cp.optionxform = str
    cp.read_string(text)
except (OSError, UnicodeDecodeError, configparser.Error) as err:
    cp = None
    problem = "cannot read %s: %s" % (S["file"], err)


def lookup(dotted):
    section, key = dotted.split("/", 1)
    if cp is None or not cp.has_section(section) or not cp.has_option(section, key):
        return None
    return cp.get(section, key)


def same(found, wanted):
    """GLib key-file values: booleans case-insensitive, numbers by value, paths without a trailing slash."""
    if found is None:
        return False
    a, b = found.strip(), str(wanted).strip()
    if a.lower() in ("true", "false") or b.lower() in ("true", "false"):
        return a.lower() == b.lower()
    try:
        return float(a) == float(b)
    except ValueError:
        pass
    if a.startswith("/") and b.startswith("/"):
        return os.path.normpath(a) == os.path.normpath(b)
    return " ".join(a.split()) == " ".join(b.split())


rubric = Rubric()
share = 0.8 / len(S["changes"])
hits = 0
for key, value in S["changes"].items():
    found = lookup(key)
    ok = same(found, value)
    hits += ok
    rubric.add("%s = %s" % (key, value), share, ok, "found %r %s" % (found, problem))
kept = [k for k, v in S["keep"].items() if same(lookup(k), v)]
rubric.add("other settings preserved", 0.2, len(kept) == len(S["keep"]) and hits > 0, "%d/%d kept; changes made: %d" % (len(kept), len(S["keep"]), hits))
rubric.finish()
