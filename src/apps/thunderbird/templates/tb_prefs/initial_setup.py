import json
import os
import re
import subprocess

HOME = "/home/user"
PREFS = os.path.join(HOME, ".thunderbird/tw/prefs.js")
LINE = re.compile(r'^user_pref\("([^"]+)",\s*(.*)\);\s*$')


def js(value):
    return json.dumps(value)


# Thunderbird is not running yet (the setup launches it last): prefs.js can be edited safely.
lines = []
if os.path.exists(PREFS):
    with open(PREFS, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
preset = dict(S["preset"])
out = []
for line in lines:
    m = LINE.match(line)
    if m and m.group(1) in preset:
        out.append('user_pref("%s", %s);' % (m.group(1), js(preset.pop(m.group(1)))))
    else:
        out.append(line)
out += ['user_pref("%s", %s);' % (k, js(v)) for k, v in preset.items()]
with open(PREFS + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write("\n".join(out) + "\n")
os.replace(PREFS + ".tw-tmp", PREFS)
subprocess.Popen(["thunderbird"], env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL, start_new_session=True)
print("setup: preset %d preference(s) and launched thunderbird" % len(S["preset"]))
