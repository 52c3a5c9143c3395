import json
import os
import re

HOME = "/home/user"
PREFS = os.path.join(HOME, ".thunderbird/tw/prefs.js")
LINE = re.compile(r'^user_pref\("([^"]+)",\s*(.*)\);\s*$')
prefs, problem = {}, ""
try:
    with open(PREFS, encoding="utf-8") as fh:
        for line in fh:
            m = LINE.match(line.strip())
            if m:
                try:
                    prefs[m.group(1)] = json.loads(m.group(2))
                except ValueError:
                    prefs[m.group(1)] = m.group(2)
except OSError as err:
    problem = "cannot read prefs.js: %s" % err


def value(name):
    # Thunderbird drops a preference equal to its built-in default from prefs.js: absent = the
    # preset value (a task's preset is Thunderbird's default where it has one, its goal is not).
    return prefs.get(name, S["preset"].get(name))


def same(found, wanted):
    if isinstance(wanted, str) and isinstance(found, str):
        return " ".join(found.split()) == " ".join(wanted.split())
    return found == wanted and type(found) is type(wanted)


rubric = Rubric()
hits = 0
for name, wanted in S["changes"].items():
    ok = same(value(name), wanted)
    hits += ok
    rubric.add("%s = %s" % (name, json.dumps(wanted)), 0.8 / len(S["changes"]), ok, "found %s %s" % (json.dumps(value(name)), problem))
kept = [k for k, v in S["keep"].items() if same(value(k), v)]
rubric.add("account and identity kept", 0.2, hits > 0 and len(kept) == len(S["keep"]), "%d/%d kept" % (len(kept), len(S["keep"])))
rubric.finish()
