import os
import re
import signal
import subprocess
import time

HOME = "/home/user"
RC = os.path.join(HOME, ".config/GIMP/2.10/gimprc")


def forms(text):
    """Top-level S-expressions of a gimprc as [(key, value text, start, end)]; comments skipped."""
    out, depth, start = [], 0, 0
    for tok in re.finditer(r'"(?:\\.|[^"\\])*"|#[^\n]*|[()]|[^\s()"#]+', text):
        t = tok.group()
        if t == "(":
            start = tok.start() if depth == 0 else start
            depth += 1
        elif t == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                key, _, value = text[start + 1:tok.start()].strip().partition(" ")
                out.append((key, " ".join(value.split()), start, tok.end()))
    return out
def stop_gimp():
    """GIMP writes gimprc (and holds the image) until it quits: stop this home's GIMP first."""
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            with open("/proc/%s/comm" % pid, encoding="utf-8") as fh:
                if not fh.read().strip().startswith("gimp"):
                    continue
            with open("/proc/%s/environ" % pid, "rb") as fh:
                env = fh.read().split(b"\0")
            with open("/proc/%s/cmdline" % pid, "rb") as fh:
                cmd = fh.read()
            if b"HOME=/home/user" not in env and b"/home/user/" not in cmd:
                continue
            os.kill(int(pid), signal.SIGTERM)
            for _ in range(50):
                if not os.path.exists("/proc/" + pid):
                    break
                time.sleep(0.1)
        except (OSError, ValueError):
            pass


def set_values(text, values):
    """Replaces each key's top-level form (or appends one), leaving every other setting as it was."""
    for key, value in values.items():
        found = [f for f in forms(text) if f[0] == key]
        form = "(%s %s)" % (key, value)
        if found:
            text = text[:found[0][2]] + form + text[found[0][3]:]
        else:
            text = text.rstrip("\n") + "\n" + form + "\n"
    return text


stop_gimp()
try:
    with open(RC, encoding="utf-8") as fh:
        text = fh.read()
except FileNotFoundError:
    text = ""
text = set_values(text, {**S["keep"], **S["preset"]})
os.makedirs(os.path.dirname(RC), exist_ok=True)
with open(RC + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write(text)
os.replace(RC + ".tw-tmp", RC)
subprocess.Popen(["gimp"], env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL, start_new_session=True)
print("setup: gimprc preset %s; launched gimp" % S["preset"])
