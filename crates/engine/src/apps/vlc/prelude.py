# The vlc pack's prelude (crates/engine/src/apps/vlc/prelude.py): joined, after skills/_common/desktop.py, in
# front of every vlc template's initial_setup.py and golden_patch.py at compile time, so a
# rendered script is still one self-contained file.
import os
import re

RC = os.path.join(HOME, ".config/vlc/vlcrc")


def stop_vlc():
    """VLC rewrites vlcrc from memory: stop this home's VLC before touching the file."""
    stop_app("vlc")


def set_keys(text, values):
    """vlcrc with `key=value` set for each key: an active or commented (#key=) line is replaced,
    a missing key is appended under [core] (VLC looks keys up by name, whatever the section)."""
    lines = text.splitlines()
    todo = dict(values)
    for i, line in enumerate(lines):
        m = re.match(r"^#?([A-Za-z0-9_-]+)=", line)
        if m and m.group(1) in todo:
            lines[i] = "%s=%s" % (m.group(1), todo.pop(m.group(1)))
    if todo:
        lines += ["", "[core] # core program"] + ["%s=%s" % kv for kv in todo.items()]
    return "\n".join(lines) + "\n"


def update_rc(values):
    """Copy-then-modify: vlcrc with only `values`' lines replaced (VLC must be stopped first)."""
    text = ""
    if os.path.exists(RC):
        with open(RC, encoding="utf-8") as fh:
            text = fh.read()
    write_atomic(RC, set_keys(text, values))


def make_dirs(rels):
    for rel in rels:
        os.makedirs(os.path.join(HOME, rel), exist_ok=True)


def start_vlc(paths=()):
    """Starts VLC on the screen with the home-relative `paths` open; returns its argument list."""
    args = ["vlc"] + [os.path.join(HOME, rel) for rel in paths]
    start_app(args)
    return args
