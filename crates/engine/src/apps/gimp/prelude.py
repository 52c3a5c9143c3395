# The gimp pack's setup prelude (crates/engine/src/apps/gimp/prelude.py): joined, after
# skills/_common/desktop.py and gimp/common.py, in front of every gimp template's
# initial_setup.py and golden_patch.py at compile time.


def stop_gimp():
    """GIMP writes gimprc (and holds the image) until it quits: stop this home's GIMP first."""
    stop_app("gimp", prefix=True)


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


def update_rc(values):
    """Copy-then-modify: gimprc with only `values`' forms replaced (GIMP must be stopped first)."""
    try:
        with open(RC, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        text = ""
    write_atomic(RC, set_values(text, values))


def save_atomic(im, path, fmt):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tw-tmp"
    im.save(tmp, format=fmt)
    os.replace(tmp, path)
