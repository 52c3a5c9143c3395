"""tuplewright: the accessibility tree of the applications on this screen (AT-SPI), as JSON.

Run with Debian's /usr/bin/python3 (python3-pyatspi) in the applications' view (their session bus at
/tmp/bus). Prints {"nodes": [{depth, role, name, description?, text?, states, x, y, w, h}], "truncated"}:
showing nodes only, depth <= MAX_DEPTH, <= MAX_CHILDREN children read per node (a Calc sheet has
billions of cells), <= MAX_NODES nodes in all.
"""
import json
import sys

import pyatspi

MAX_DEPTH = 40
MAX_CHILDREN = 300
MAX_NODES = 4000
WANTED = ("focused", "selected", "checked", "pressed", "expanded", "editable", "active", "enabled", "modal")


def states_of(st):
    out = []
    for name in WANTED:
        if st.contains(getattr(pyatspi, "STATE_" + name.upper())):
            out.append(name)
    return out


def main():
    nodes = []
    truncated = False
    desktop = pyatspi.Registry.getDesktop(0)
    stack = [(desktop.getChildAtIndex(i), 0) for i in reversed(range(desktop.childCount))]
    while stack:
        node, depth = stack.pop()
        if len(nodes) >= MAX_NODES:
            truncated = True
            break
        try:
            st = node.getState()
            if depth > 0 and not st.contains(pyatspi.STATE_SHOWING):
                continue
            entry = {"depth": depth, "role": node.getRoleName(), "name": node.name or ""}
            if node.description:
                entry["description"] = node.description
            entry["states"] = states_of(st)
            try:
                ext = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                entry.update({"x": ext.x, "y": ext.y, "w": ext.width, "h": ext.height})
            except NotImplementedError:
                pass
            try:
                t = node.queryText()
                entry["text"] = t.getText(0, min(t.characterCount, 200))
            except NotImplementedError:
                pass
            count = node.childCount
        except Exception:  # a node that vanished while read
            continue
        nodes.append(entry)
        if depth >= MAX_DEPTH:
            truncated = truncated or count > 0
            continue
        if count > MAX_CHILDREN:
            truncated = True
            continue
        for i in reversed(range(count)):
            try:
                stack.append((node.getChildAtIndex(i), depth + 1))
            except Exception:
                continue
    json.dump({"nodes": nodes, "truncated": truncated}, sys.stdout)


if __name__ == "__main__":
    main()
