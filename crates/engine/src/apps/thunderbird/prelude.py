# The thunderbird pack's prelude (crates/engine/src/apps/thunderbird/prelude.py): joined, after
# skills/_common/desktop.py, in front of every thunderbird template's initial_setup.py and
# golden_patch.py at compile time, so a rendered script is still one self-contained file.
import email.utils
import json
import os
import re

MAIL = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders")
PREFS = os.path.join(HOME, ".thunderbird/tw/prefs.js")
LINE = re.compile(r'^user_pref\("([^"]+)",\s*(.*)\);\s*$')


def mbox(messages):
    """Thunderbird's mbox: a `From -` line, X-Mozilla-Status (1 read, 4 flagged), X-Mozilla-Keys
    padded to 80 spaces (room for tags Thunderbird writes in place), headers, body (>From quoted)."""
    out = []
    for m in messages:
        status = (1 if m.get("read") else 0) | (4 if m.get("flagged") else 0)
        keys = " ".join(m.get("tags", []))
        when = email.utils.parsedate_to_datetime(m["date"])
        body = "\n".join((">" + l if l.startswith("From ") else l) for l in m["body"].split("\n"))
        out.append("From - %s\nX-Mozilla-Status: %04x\nX-Mozilla-Status2: 00000000\nX-Mozilla-Keys: %s\n"
                   "From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: %s\nMIME-Version: 1.0\n"
                   "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n\n%s\n\n"
                   % (when.strftime("%a %b %d %H:%M:%S %Y"), status, keys + " " * max(0, 80 - len(keys)),
                      m["from"], m["to"], m["subject"], m["date"], m["id"], body))
    return "".join(out)


def write_folders(folders):
    """Writes each Local Folders mbox; a summary file left from another state would describe other
    messages, so it is removed (Thunderbird rebuilds it)."""
    for name, messages in folders.items():
        path = os.path.join(MAIL, name)
        write_atomic(path, mbox(messages))
        if os.path.exists(path + ".msf"):
            os.remove(path + ".msf")


def set_prefs(values):
    """prefs.js with each preference's `user_pref` line replaced (or appended), every other line
    kept (copy-then-modify). Thunderbird rewrites prefs.js from memory: it must not be running."""
    lines = []
    if os.path.exists(PREFS):
        with open(PREFS, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    todo = dict(values)
    out = []
    for line in lines:
        m = LINE.match(line)
        if m and m.group(1) in todo:
            out.append('user_pref("%s", %s);' % (m.group(1), json.dumps(todo.pop(m.group(1)))))
        else:
            out.append(line)
    out += ['user_pref("%s", %s);' % (k, json.dumps(v)) for k, v in todo.items()]
    write_atomic(PREFS, "\n".join(out) + "\n")


def start_thunderbird():
    start_app(["thunderbird"])
