import email.utils
import os

HOME = "/home/user"
DRAFTS = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders/Drafts")
# What Thunderbird appends to Drafts when a composition is saved (Ctrl+S): a plain-text message with
# X-Mozilla-Draft-Info; the existing Drafts folder (if any) is kept, the draft appended.
d = S["draft"]
now = "Mon, 10 Mar 2025 12:00:00 +0000"
when = email.utils.parsedate_to_datetime(now)
to = ", ".join(d["to"])
msg = ("From - %s\nX-Mozilla-Status: 0000\nX-Mozilla-Status2: 00000000\nX-Mozilla-Keys: %s\n"
       "Message-ID: <golden-draft@harbor.test>\nDate: %s\nMIME-Version: 1.0\nUser-Agent: Mozilla Thunderbird\n"
       "To: %s\nFrom: Dana Ruiz <dana@harbor.test>\nSubject: %s\n"
       "X-Mozilla-Draft-Info: internal/draft; vcard=0; receipt=0; DSN=0; uuencode=0\n"
       "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n\n%s\n\n"
       % (when.strftime("%a %b %d %H:%M:%S %Y"), " " * 80, now, to, d["subject"], d["body"]))
old = ""
if os.path.exists(DRAFTS):
    with open(DRAFTS, encoding="utf-8") as fh:
        old = fh.read()
with open(DRAFTS + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write(old + msg)
os.replace(DRAFTS + ".tw-tmp", DRAFTS)
if os.path.exists(DRAFTS + ".msf"):
    os.remove(DRAFTS + ".msf")
print("golden: saved the draft %r" % d["subject"])
