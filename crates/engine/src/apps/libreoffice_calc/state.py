"""State reader of the libreoffice_calc pack (see docs/desktop-apps.md).

Invocation: python3 state.py HOME. Prints one JSON object:
{"workbooks": {"<path relative to HOME>": {"sheets": {"<name>": {"name", "dimensions", "cells": {"A1":
{"value", "formula"?, "style"?}}, "merged": [...], "freeze": "A2"|null, "hidden": bool, "protected"?,
"truncated"?: n}}, "order": [sheet names], "active": "<sheet>", "defined_names": {...}} | {"error": "..."}}, "csv": {"<path>": [[...], ...]}}
A document that cannot be read is recorded as {"error": ...} (it is state, not a failure); any other
problem exits non-zero with the reason on stderr.
"""
import csv
import datetime
import json
import os
import sys
import warnings

import openpyxl

PATTERNS = ("*.xlsx", "*.xlsm")
MAX_CELLS = 2000
MAX_FILES = 40
warnings.simplefilter("ignore")


def plain(value):
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def colour(c):
    if c is None or c.type != "rgb" or not isinstance(c.rgb, str):
        return None
    return c.rgb


def style_of(cell):
    s = {}
    f = cell.font
    if f is not None:
        if f.b:
            s["bold"] = True
        if f.i:
            s["italic"] = True
        if f.u:
            s["underline"] = f.u
        if colour(f.color) not in (None, "FF000000"):
            s["color"] = colour(f.color)
    fill = cell.fill
    if fill is not None and fill.fill_type == "solid" and colour(fill.fgColor) not in (None, "00000000"):
        s["fill"] = colour(fill.fgColor)
    if cell.number_format and cell.number_format != "General":
        s["number_format"] = cell.number_format
    if cell.alignment is not None and cell.alignment.horizontal:
        s["align"] = cell.alignment.horizontal
    return s


def sheet_state(ws, values):
    cells = {}
    count = 0
    for row in ws.iter_rows():
        for cell in row:
            if cell.value is None and not style_of(cell):
                continue
            count += 1
            if count > MAX_CELLS:
                continue
            entry = {}
            if isinstance(cell.value, str) and cell.value.startswith("="):
                entry["formula"] = cell.value
                entry["value"] = plain(values[cell.coordinate].value) if values is not None else None
            else:
                entry["value"] = plain(cell.value)
            st = style_of(cell)
            if st:
                entry["style"] = st
            cells[cell.coordinate] = entry
    out = {
        "name": ws.title,
        "dimensions": ws.dimensions,
        "cells": cells,
        "merged": sorted(str(r) for r in ws.merged_cells.ranges),
        "freeze": ws.freeze_panes,
        "hidden": ws.sheet_state != "visible",
    }
    if ws.protection is not None and ws.protection.sheet:
        out["protected"] = True
    if count > MAX_CELLS:
        out["truncated"] = count
    return out


def workbook_state(path):
    try:
        wb = openpyxl.load_workbook(path)
        try:
            cached = openpyxl.load_workbook(path, data_only=True)
        except Exception:
            cached = None
    except Exception as exc:
        return {"error": "%s: %s" % (type(exc).__name__, exc)}
    sheets = {}
    for ws in wb.worksheets:
        values = cached[ws.title] if cached is not None else None
        sheets[ws.title] = sheet_state(ws, values)
    names = {}
    for name, dn in wb.defined_names.items():
        names[name] = dn.attr_text
    return {"sheets": sheets, "order": [ws.title for ws in wb.worksheets], "active": wb.active.title if wb.active is not None else None, "defined_names": names}


def documents(home):
    found = []
    for root, dirs, files in os.walk(home):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.startswith(".~lock.") or f.startswith("."):
                continue
            found.append(os.path.relpath(os.path.join(root, f), home))
    return found


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: state.py HOME (an existing directory)")
    home = sys.argv[1]
    state = {"workbooks": {}, "csv": {}}
    for rel in documents(home)[: MAX_FILES * 10]:
        low = rel.lower()
        path = os.path.join(home, rel)
        if low.endswith((".xlsx", ".xlsm")) and len(state["workbooks"]) < MAX_FILES:
            state["workbooks"][rel] = workbook_state(path)
        elif low.endswith(".csv") and len(state["csv"]) < MAX_FILES:
            try:
                with open(path, newline="", encoding="utf-8") as fh:
                    state["csv"][rel] = [row for _, row in zip(range(200), csv.reader(fh))]
            except (OSError, UnicodeDecodeError, csv.Error) as exc:
                state["csv"][rel] = {"error": str(exc)}
    json.dump(state, sys.stdout, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
