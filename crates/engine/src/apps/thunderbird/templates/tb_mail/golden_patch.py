import os
import re

HOME = "/home/user"
MAIL = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders")
# Copy-then-modify: the mbox files the setup wrote are edited in place, message by message.


def split(path):
    """The raw messages of an mbox file (each starting with its `From ` line)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    parts = re.split(r"(?m)^(?=From )", text)
    return [p for p in parts if p.startswith("From ")]


def header(raw, name):
    m = re.search(r"(?mi)^%s: ?(.*)$" % re.escape(name), raw.split("\n\n", 1)[0])
    return m.group(1) if m else None


def set_header(raw, name, value):
    head, sep, body = raw.partition("\n\n")
    pattern = r"(?mi)^%s: ?.*$" % re.escape(name)
    if re.search(pattern, head):
        head = re.sub(pattern, lambda _: "%s: %s" % (name, value), head, count=1)
    else:
        first, nl, rest = head.partition("\n")
        head = first + "\n%s: %s" % (name, value) + nl + rest
    return head + sep + body


def status(raw):
    try:
        return int(header(raw, "X-Mozilla-Status") or "0", 16)
    except ValueError:
        return 0


def with_status(raw, bit, on):
    value = status(raw) | bit if on else status(raw) & ~bit
    return set_header(raw, "X-Mozilla-Status", "%04x" % value)


def with_tag(raw, tag, on):
    keys = (header(raw, "X-Mozilla-Keys") or "").split()
    keys = [k for k in keys if k != tag] + ([tag] if on else [])
    text = " ".join(keys)
    return set_header(raw, "X-Mozilla-Keys", text + " " * max(0, 80 - len(text)))


folders = {}


def folder(name):
    if name not in folders:
        folders[name] = split(os.path.join(MAIL, name))
    return folders[name]


def find(name, msgid):
    for i, raw in enumerate(folder(name)):
        if header(raw, "Message-ID") == msgid and not status(raw) & 8:
            return i
    raise SystemExit("golden: message %s not in %s" % (msgid, name))


EDITS = {"flag": (4, True), "unflag": (4, False), "read": (1, True), "unread": (1, False)}
for op in S["ops"]:
    kind = op["op"]
    if kind == "create_folder":
        folder(op["name"])
        continue
    msgs = folder(op["folder"])
    i = find(op["folder"], op["id"])
    if kind in EDITS:
        msgs[i] = with_status(msgs[i], *EDITS[kind])
    elif kind in ("tag", "untag"):
        msgs[i] = with_tag(msgs[i], op["tag"], kind == "tag")
    elif kind in ("move", "delete"):
        raw = msgs.pop(i)
        folder(op.get("to", "Trash")).append(raw if raw.endswith("\n\n") else raw + "\n")
    else:
        raise SystemExit("golden: unknown op %r" % kind)
for name, msgs in folders.items():
    path = os.path.join(MAIL, name)
    with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
        fh.write("".join(msgs))
    os.replace(path + ".tw-tmp", path)
    if os.path.exists(path + ".msf"):
        os.remove(path + ".msf")
print("golden: applied %d operation(s)" % len(S["ops"]))
