import json
import os
import re

HOME = "/home/user"
PREFS = os.path.join(HOME, ".thunderbird/tw/prefs.js")
LINE = re.compile(r'^user_pref\("([^"]+)",\s*(.*)\);\s*$')
# Copy-then-modify: only the changed preferences' lines are replaced (or added); Thunderbird must not
# be running (it rewrites prefs.js from memory), which is true where golden patches run.
with open(PREFS, encoding="utf-8") as fh:
    lines = fh.read().splitlines()
todo = dict(S["changes"])
out = []
for line in lines:
    m = LINE.match(line)
    if m and m.group(1) in todo:
        out.append('user_pref("%s", %s);' % (m.group(1), json.dumps(todo.pop(m.group(1)))))
    else:
        out.append(line)
out += ['user_pref("%s", %s);' % (k, json.dumps(v)) for k, v in todo.items()]
with open(PREFS + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write("\n".join(out) + "\n")
os.replace(PREFS + ".tw-tmp", PREFS)
print("golden: set %s" % ", ".join(sorted(S["changes"])))
