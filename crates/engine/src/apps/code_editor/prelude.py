# The code_editor pack's prelude (crates/engine/src/apps/code_editor/prelude.py): joined, after
# skills/_common/desktop.py, in front of every code_editor template's initial_setup.py and
# golden_patch.py at compile time, so a rendered script is still one self-contained file.
import configparser
import os


def stop_geany():
    """Geany rewrites geany.conf when it quits: stop it before touching its files."""
    stop_app("geany")


def keyfile(path):
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=",), strict=False)
    cp.optionxform = str
    if os.path.exists(path):
        cp.read(path, encoding="utf-8")
    return cp


def update_keyfile(path, values):
    """Copy-then-modify: the key file with each `section/key` of `values` set, the rest kept."""
    cp = keyfile(path)
    for dotted, value in values.items():
        section, key = dotted.split("/", 1)
        if not cp.has_section(section):
            cp.add_section(section)
        cp.set(section, key, str(value))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
        cp.write(fh, space_around_delimiters=False)
    os.replace(path + ".tw-tmp", path)


def start_geany(paths=()):
    start_app(["geany"] + [os.path.join(HOME, rel) for rel in paths])
