import json
import os

PREFS = "/home/user/.config/chromium/Default/Preferences"


stop_chromium()
with open(PREFS, encoding="utf-8") as fh:
    prefs = json.load(fh)
for dotted, value in S["changes"].items():
    put(prefs, dotted, value)
write_json(PREFS, prefs)
print("golden: set %s" % ", ".join(S["changes"]))
