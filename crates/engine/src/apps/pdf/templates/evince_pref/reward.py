import configparser
import os

HOME = "/home/user"
KEYFILE = os.path.join(HOME, ".config/glib-2.0/settings/keyfile")
SECTION = "org/gnome/evince/default"
problem = ""
cp = configparser.ConfigParser(interpolation=None, delimiters=("=",), strict=False)
cp.optionxform = str
try:
    with open(KEYFILE, encoding="utf-8") as fh:
        cp.read_string(fh.read())
except (OSError, UnicodeDecodeError, configparser.Error) as err:
    problem = "cannot read the settings key file: %s" % err


def value(key):
    """The key's value; a key the file does not hold is not set (Ctrl+T writes every default-view key)."""
    if cp.has_option(SECTION, key):
        return cp.get(SECTION, key)
    return None


def same(a, b):
    return a is not None and str(a).strip().strip("'").lower() == str(b).strip().strip("'").lower()


rubric = Rubric()
share = 0.8 / len(S["changes"])
hits = 0
for key, want in S["changes"].items():
    ok = same(value(key), want)
    hits += ok
    rubric.add("%s = %s" % (key, want), share, ok, problem or "found %r" % value(key))
kept = [k for k, v in S["keep"].items() if same(value(k), v)]
rubric.add("other defaults preserved", 0.2, hits > 0 and len(kept) == len(S["keep"]),
           "%d/%d kept; changes made: %d" % (len(kept), len(S["keep"]), hits))
rubric.finish()
