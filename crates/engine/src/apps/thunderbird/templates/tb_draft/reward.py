import email
import email.policy
import email.utils
import os
import re

HOME = "/home/user"
DRAFTS = os.path.join(HOME, ".thunderbird/tw/Mail/Local Folders/Drafts")
d = S["draft"]


def drafts():
    """The saved drafts (not expunged) as email messages."""
    try:
        with open(DRAFTS, "rb") as fh:
            text = fh.read()
    except OSError:
        return []
    out = []
    for raw in re.split(rb"(?m)^(?=From )", text):
        if not raw.startswith(b"From "):
            continue
        msg = email.message_from_bytes(raw.split(b"\n", 1)[1], policy=email.policy.default)
        try:
            if int(str(msg.get("X-Mozilla-Status", "0")).strip() or "0", 16) & 8:
                continue
        except ValueError:
            pass
        out.append(msg)
    return out


def norm(text):
    return " ".join(str(text or "").split()).lower()


def body(msg):
    part = msg.get_body(preferencelist=("plain", "html"))
    text = part.get_content() if part is not None else ""
    # format=flowed: a line ending in a space continues on the next line.
    return norm(re.sub(r" \n", " ", text))


def addresses(msg):
    return {a.lower() for _, a in email.utils.getaddresses([str(msg.get("To", "")), str(msg.get("Cc", ""))]) if a}


want_to = {a.lower() for a in d["to"]}
best, best_score = None, -1
for msg in drafts():
    score = (norm(msg.get("Subject")) == norm(d["subject"])) + (addresses(msg) == want_to) + (norm(d["body"]) in body(msg))
    if score > best_score:
        best, best_score = msg, score
rubric = Rubric()
if best is None:
    rubric.add("a draft saved in Local Folders/Drafts", 1.0, False, "no draft in %s" % DRAFTS)
else:
    rubric.add("subject is %r" % d["subject"], 0.25, norm(best.get("Subject")) == norm(d["subject"]), "subject %r" % str(best.get("Subject")))
    rubric.add("addressed to %s" % ", ".join(d["to"]), 0.375, addresses(best) == want_to, "recipients %s" % sorted(addresses(best)))
    rubric.add("body says %r" % d["body"], 0.375, norm(d["body"]) in body(best), "body %r" % body(best)[:120])
rubric.finish()
