import os

HOME = "/home/user"
RULES = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders/msgFilterRules.dat")
# Copy-then-modify: the filter is appended to the rules file the setup wrote, as Thunderbird's
# Message Filters dialog writes it (type 17 = run on new mail and manually).
f = S["filter"]
with open(RULES, encoding="utf-8") as fh:
    text = fh.read()
if not text.endswith("\n"):
    text += "\n"
text += 'name="%s"\nenabled="yes"\ntype="17"\n' % f["name"]
for action, value in f["actions"]:
    text += 'action="%s"\n' % action + ('actionValue="%s"\n' % value if value else "")
text += 'condition="%s"\n' % f["condition"]
with open(RULES + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write(text)
os.replace(RULES + ".tw-tmp", RULES)
print("golden: added the filter %r" % f["name"])
