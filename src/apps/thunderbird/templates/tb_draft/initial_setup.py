import email.utils
import os
import subprocess

HOME = "/home/user"
MAIL = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders")


def write_atomic(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(path + ".tw-tmp", path)


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


for name, messages in S["folders"].items():
    path = os.path.join(MAIL, name)
    write_atomic(path, mbox(messages))
    # A summary file left from another state would describe other messages: Thunderbird rebuilds it.
    if os.path.exists(path + ".msf"):
        os.remove(path + ".msf")
subprocess.Popen(["thunderbird"], env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL, start_new_session=True)
print("setup: wrote %d folder(s) (%d messages) and launched thunderbird"
      % (len(S["folders"]), sum(len(v) for v in S["folders"].values())))
