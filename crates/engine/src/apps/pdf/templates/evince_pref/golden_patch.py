import os

KEYFILE = os.path.join(HOME, ".config/glib-2.0/settings/keyfile")
SECTION = "org/gnome/evince/default"


def keyfile_lines(text, values):
    """GLib key file text with `values` set in [SECTION] (other sections and keys kept)."""
    lines = text.splitlines()
    header = "[%s]" % SECTION
    if header not in lines:
        lines += ["", header] if lines else [header]
    start = lines.index(header) + 1
    end = start
    while end < len(lines) and not lines[end].startswith("["):
        end += 1
    body = [ln for ln in lines[start:end] if ln.split("=", 1)[0].strip() not in values and ln.strip()]
    body += ["%s=%s" % (k, v) for k, v in sorted(values.items())]
    return "\n".join(lines[:start] + body + [""] + lines[end:]).rstrip("\n") + "\n"


stop_app("evince")
with open(KEYFILE, encoding="utf-8") as fh:
    text = fh.read()
with open(KEYFILE + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write(keyfile_lines(text, S["changes"]))
os.replace(KEYFILE + ".tw-tmp", KEYFILE)
print("golden: evince defaults %s" % S["changes"])
