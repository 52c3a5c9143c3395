import os
import re

HOME = "/home/user"
RC = os.path.join(HOME, ".config/vlc/vlcrc")
active, problem = {}, ""
try:
    with open(RC, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            m = re.match(r"^([A-Za-z0-9_-]+)=(.*)$", line.rstrip("\n"))
            if m and m.group(1) not in active:
                active[m.group(1)] = m.group(2)
except OSError as err:
    problem = "cannot read vlcrc: %s" % err


def value(key):
    # VLC writes a default value commented out (#key=value): a key with no active line has the
    # default, which every task's `defaults` slot names.
    return active.get(key, S["defaults"].get(key))


def same(found, wanted):
    if found is None:
        return False
    a, b = str(found).strip(), str(wanted).strip()
    try:
        return float(a) == float(b)
    except ValueError:
        pass
    if a.startswith("/") and b.startswith("/"):
        return os.path.normpath(a) == os.path.normpath(b)
    return a == b


rubric = Rubric()
hits = 0
for key, wanted in S["changes"].items():
    ok = same(value(key), wanted)
    hits += ok
    rubric.add("%s=%s" % (key, wanted), 0.8 / len(S["changes"]), ok, "found %r %s" % (value(key), problem))
kept = [k for k, v in S["keep"].items() if same(value(k), v)]
rubric.add("first-run and privacy settings kept", 0.2, hits > 0 and len(kept) == len(S["keep"]), "%d/%d kept" % (len(kept), len(S["keep"])))
rubric.finish()
