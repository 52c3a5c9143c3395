import os
import re

HOME = "/home/user"
MAIL = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders")
TAGS = {"$label1": "Important", "$label2": "Work", "$label3": "Personal", "$label4": "To Do", "$label5": "Later"}


def messages(name):
    """{Message-ID: (status, keys)} of a folder's mbox, without expunged messages (Thunderbird marks a
    moved or deleted message expunged, 0x0008, and leaves it in the file until the folder is compacted)."""
    path = os.path.join(MAIL, name)
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    out = {}
    for raw in re.split(r"(?m)^(?=From )", text):
        head = raw.split("\n\n", 1)[0]
        get = lambda n: (re.search(r"(?mi)^%s: ?(.*)$" % n, head) or [None, None])[1]
        msgid = get("Message-ID")
        if not raw.startswith("From ") or not msgid:
            continue
        try:
            st = int((get("X-Mozilla-Status") or "0").strip(), 16)
        except ValueError:
            st = 0
        if st & 8:
            continue
        out[msgid.strip()] = (st, set((get("X-Mozilla-Keys") or "").split()))
    return out


cache = {}


def folder(name):
    if name not in cache:
        cache[name] = messages(name)
    return cache[name]


def check(op):
    kind = op["op"]
    if kind == "create_folder":
        ok = os.path.isfile(os.path.join(MAIL, op["name"]))
        return ok, "folder %s %s" % (op["name"], "exists" if ok else "missing")
    here = folder(op["folder"]) or {}
    msg = here.get(op["id"])
    if kind in ("move", "delete"):
        dest = op.get("to", "Trash")
        there = folder(dest) or {}
        gone = msg is None
        arrived = op["id"] in there
        # Delete in Thunderbird moves the message to Trash (a message absent everywhere proves nothing:
        # the state may never have had it).
        ok = gone and arrived
        return ok, "%s: %s %s, %s %s" % (op["subject"], "gone from" if gone else "still in", op["folder"],
                                         "in" if arrived else "not in", dest)
    if msg is None:
        return False, "%s is no longer in %s" % (op["subject"], op["folder"])
    st, keys = msg
    wanted = {"flag": bool(st & 4), "unflag": not st & 4, "read": bool(st & 1), "unread": not st & 1,
              "tag": op.get("tag") in keys, "untag": op.get("tag") not in keys}
    return wanted[kind], "%s: status %04x, tags %s" % (op["subject"], st, sorted(TAGS.get(k, k) for k in keys))


rubric = Rubric()
ops = S["ops"]
passed = 0
for op in ops:
    ok, detail = check(op)
    passed += ok
    rubric.add(op["say"], 0.8 / max(1, len(ops)), ok, detail)
# Every other message stays where it was, with its star and tags (reading a message is allowed).
targets = {op.get("id") for op in ops}
moved = {op["id"] for op in ops if op["op"] in ("move", "delete")}
lost = []
for name, msgs in S["folders"].items():
    now = folder(name) or {}
    for m in msgs:
        if m["id"] in moved:
            continue
        got = now.get(m["id"])
        if got is None:
            lost.append("%s left %s" % (m["subject"], name))
        elif m["id"] not in targets and (bool(got[0] & 4) != bool(m.get("flagged")) or got[1] != set(m.get("tags", []))):
            lost.append("%s changed star or tags" % m["subject"])
rubric.add("other messages untouched", 0.2, passed > 0 and not lost, "; ".join(lost[:4]) or "all in place (goal checks passed: %d)" % passed)
rubric.finish()
