#!/usr/bin/env python3
"""State reader of the thunderbird pack: argv[1] is the environment's home on the host.

Prints one JSON object:
  folders: {"Inbox": [{id, from, to, subject, date, read, flagged, replied, tags}], "Projects.sbd/X": …}
           (mbox files under the profile's Local Folders; expunged messages - moved or deleted, still in
           the file until Thunderbird compacts it - are left out; at most 60 folders x 500 messages)
  drafts:  the Drafts folder's messages with their plain-text body (first 2,000 characters)
  prefs:   every user_pref of prefs.js (JSON values)
  filters: msgFilterRules.dat as [{name, enabled, type, actions: [[action, value]], condition}]
"""
import email
import email.policy
import json
import os
import re
import sys

PROFILE = ".thunderbird/tw"
MAX_FOLDERS, MAX_MESSAGES = 60, 500
TAGS = {"$label1": "Important", "$label2": "Work", "$label3": "Personal", "$label4": "To Do", "$label5": "Later"}
SKIP = (".msf", ".dat", ".json", ".tw-tmp")


def message(raw, with_body):
    msg = email.message_from_bytes(raw.split(b"\n", 1)[1] if b"\n" in raw else b"", policy=email.policy.default)
    try:
        status = int(str(msg.get("X-Mozilla-Status", "0")).strip() or "0", 16)
    except ValueError:
        status = 0
    out = {"id": str(msg.get("Message-ID", "")), "from": str(msg.get("From", "")), "to": str(msg.get("To", "")),
           "subject": str(msg.get("Subject", "")), "date": str(msg.get("Date", "")), "read": bool(status & 1),
           "replied": bool(status & 2), "flagged": bool(status & 4),
           "tags": [TAGS.get(k, k) for k in str(msg.get("X-Mozilla-Keys", "")).split()]}
    if msg.get("Cc"):
        out["cc"] = str(msg.get("Cc"))
    if with_body:
        try:
            part = msg.get_body(preferencelist=("plain", "html"))
            out["body"] = (part.get_content() if part is not None else "")[:2000]
        except (LookupError, ValueError) as err:
            out["body_error"] = str(err)
    return out, bool(status & 8)


def mbox(path, with_body=False):
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        return {"error": str(err)}
    out = []
    for raw in re.split(rb"(?m)^(?=From )", data):
        if not raw.startswith(b"From "):
            continue
        try:
            msg, expunged = message(raw, with_body)
        except (ValueError, LookupError, UnicodeError) as err:
            msg, expunged = {"error": str(err)}, False
        if not expunged:
            out.append(msg)
    if len(out) > MAX_MESSAGES:
        return {"messages": out[:MAX_MESSAGES], "truncated": len(out)}
    return out


def folders(root):
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SKIP) or name.startswith("."):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if len(found) >= MAX_FOLDERS:
                found["__truncated__"] = True
                return found
            found[rel] = mbox(os.path.join(dirpath, name))
    return found


def prefs(path):
    out = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                m = re.match(r'^user_pref\("([^"]+)",\s*(.*)\);\s*$', line.strip())
                if m:
                    try:
                        out[m.group(1)] = json.loads(m.group(2))
                    except ValueError:
                        out[m.group(1)] = m.group(2)
    except OSError as err:
        return {"error": str(err)}
    return out


def filters(path):
    out = []
    if not os.path.exists(path):
        return out
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        return {"error": str(err)}
    for line in lines:
        m = re.match(r'^(\w+)="(.*)"$', line.strip())
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        if key == "name":
            out.append({"name": value, "actions": []})
        elif out and key == "action":
            out[-1]["actions"].append([value, ""])
        elif out and key == "actionValue" and out[-1]["actions"]:
            out[-1]["actions"][-1][1] = value
        elif out and key in ("enabled", "type", "condition"):
            out[-1][key] = value
    return out


def main(home):
    profile = os.path.join(home, PROFILE)
    local = os.path.join(profile, "Mail", "Local Folders")
    state = {"folders": folders(local), "prefs": prefs(os.path.join(profile, "prefs.js")),
             "filters": filters(os.path.join(local, "msgFilterRules.dat"))}
    drafts = os.path.join(local, "Drafts")
    state["drafts"] = mbox(drafts, with_body=True) if os.path.exists(drafts) else []
    json.dump(state, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
