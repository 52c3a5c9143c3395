#!/usr/bin/env python3
"""State reader of the code_editor pack (Geany): argv[1] is the environment's home on the host.

Prints one JSON object: settings (every key of Geany's key files as "section/key" -> value),
projects (each *.geany project file parsed the same way) and files (the text of the workspace's
source files under projects/, at most 200 files of 64 KiB each).
"""
import configparser
import json
import os
import sys

MAX_FILES = 200
MAX_BYTES = 64 * 1024
SKIP_DIRS = {".git", "__pycache__", "node_modules", ".venv"}


def keyfile(path):
    """A GLib key file as {"section/key": value}; an unreadable file is {"error": ...}."""
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=",), strict=False)
    cp.optionxform = str
    try:
        with open(path, encoding="utf-8") as fh:
            cp.read_string(fh.read())
    except (OSError, UnicodeDecodeError, configparser.Error) as err:
        return {"error": str(err)}
    return {"%s/%s" % (s, k): v for s in cp.sections() for k, v in cp.items(s)}


def main(home):
    conf = os.path.join(home, ".config", "geany")
    settings = {}
    for name in ("geany.conf", "keybindings.conf"):
        if os.path.isfile(os.path.join(conf, name)):
            settings[name] = keyfile(os.path.join(conf, name))
    filedefs = os.path.join(conf, "filedefs")
    if os.path.isdir(filedefs):
        for name in sorted(os.listdir(filedefs)):
            if name.startswith("filetypes.") and name != "filetypes.README":
                settings["filedefs/" + name] = keyfile(os.path.join(filedefs, name))
    projects, files, truncated = {}, {}, 0
    root = os.path.join(home, "projects")
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, home)
            if name.endswith(".geany"):
                projects[rel] = keyfile(path)
                continue
            if len(files) >= MAX_FILES:
                truncated += 1
                continue
            try:
                with open(path, "rb") as fh:
                    data = fh.read(MAX_BYTES + 1)
                files[rel] = data[:MAX_BYTES].decode("utf-8") if len(data) <= MAX_BYTES else {"error": "over 64 KiB"}
            except UnicodeDecodeError:
                files[rel] = {"error": "not UTF-8 text"}
            except OSError as err:
                files[rel] = {"error": str(err)}
    out = {"settings": settings, "projects": projects, "files": files}
    if truncated:
        out["files_truncated"] = truncated
    json.dump(out, sys.stdout, ensure_ascii=False, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: state.py HOME")
    main(sys.argv[1])
