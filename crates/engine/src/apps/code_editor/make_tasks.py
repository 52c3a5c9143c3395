#!/usr/bin/env python3
"""Writes tasks.json of the code_editor pack (Geany standing in for OSWorld's vs_code).

Run from the crate root: python3 crates/engine/src/apps/code_editor/make_tasks.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from projects import INVENTORY, SITE, WEATHER  # noqa: E402

CONF = ".config/geany/geany.conf"
TASKS = []


def add(tid, text, context, difficulty, template, slots, scenario="Code Editing"):
    TASKS.append({
        "task_id": "code_editor_%s" % tid,
        "task_instruction": text,
        "context": context,
        "difficulty": difficulty,
        "domain": "code_editor",
        "domains": ["code_editor"],
        "platform": "desktop",
        "scenario": scenario,
        "task_type": "single_app",
        "template": template,
        "slots": slots,
    })


BASE_KEEP = {"geany/editor_font": "Monospace 10", "geany/pref_main_confirm_exit": "false",
             "geany/pref_main_load_session": "false", "geany/pref_template_developer": "Dana Ruiz"}


def pref(tid, text, difficulty, preset, changes, open_files=("projects/inventory/inventory/stats.py",)):
    keep = {k: v for k, v in BASE_KEEP.items() if k not in preset and k not in changes}
    context = ("The setup writes ~/%s with %s (and keeps %s), writes the inventory project and opens %s in "
               "Geany. Ground truth: %s in geany.conf (Geany saves its preferences when the Preferences "
               "dialog is closed with OK). Checkpoints: one per key (0.8 split), other settings preserved (0.2)."
               % (CONF, json.dumps(preset), json.dumps(keep), ", ".join(open_files), json.dumps(changes)))
    add(tid, text, context, difficulty, "geany_pref",
        {"file": CONF, "files": INVENTORY, "preset": preset, "changes": changes, "keep": keep,
         "open": list(open_files)}, scenario="Editor Settings")


def settings():
    g = "geany/"
    pref("indent_width_2", "In Geany, set the indentation width to 2.", "easy",
         {g + "pref_editor_tab_width": "4"}, {g + "pref_editor_tab_width": "2"})
    pref("indent_spaces", "Make Geany indent with spaces instead of tabs.", "easy",
         {g + "indent_type": "1"}, {g + "indent_type": "0"})
    pref("indent_tabs", "Configure Geany to indent with tabs only, not spaces.", "easy",
         {g + "indent_type": "0"}, {g + "indent_type": "1"})
    pref("line_endings", "Make Geany show line endings in the editor.", "easy",
         {g + "show_line_endings": "false"}, {g + "show_line_endings": "true"})
    pref("line_numbers_off", "Hide the line-number margin in Geany.", "easy",
         {g + "show_linenumber_margin": "true"}, {g + "show_linenumber_margin": "false"})
    pref("font_13", "Change Geany's editor font to Monospace at size 13.", "medium",
         {g + "editor_font": "Monospace 10"}, {g + "editor_font": "Monospace 13"})
    pref("word_wrap", "Enable line wrapping in Geany so long lines wrap in the editor.", "easy",
         {g + "line_wrapping": "false"}, {g + "line_wrapping": "true"})
    pref("strip_trailing", "Make Geany strip trailing spaces whenever a file is saved.", "easy",
         {g + "pref_editor_trail_space": "false"}, {g + "pref_editor_trail_space": "true"})
    pref("final_newline", "Have Geany ensure every saved file ends with a new line.", "easy",
         {g + "pref_editor_new_line": "false"}, {g + "pref_editor_new_line": "true"})
    pref("replace_tabs_on_save", "Set Geany to replace tabs with spaces when saving files.", "easy",
         {g + "pref_editor_replace_tabs": "false"}, {g + "pref_editor_replace_tabs": "true"})
    pref("long_line_100", "Move Geany's long-line marker to column 100.", "easy",
         {g + "long_line_column": "72"}, {g + "long_line_column": "100"})
    pref("show_whitespace", "Make Geany show white space characters in the editor.", "easy",
         {g + "show_white_space": "false"}, {g + "show_white_space": "true"})
    pref("indent_guides", "Turn on indentation guides in Geany.", "easy",
         {g + "show_indent_guide": "false"}, {g + "show_indent_guide": "true"})
    pref("no_folding", "Disable code folding in Geany.", "easy",
         {g + "use_folding": "true"}, {g + "use_folding": "false"})
    pref("python_style", "Set Geany up for PEP 8: indent with spaces (no tabs), put the long-line marker at "
         "column 79 and strip trailing spaces on save.", "hard",
         {g + "indent_type": "1", g + "long_line_column": "72", g + "pref_editor_trail_space": "false"},
         {g + "indent_type": "0", g + "long_line_column": "79", g + "pref_editor_trail_space": "true"})
    pref("web_style", "For the web project, set Geany to indent with 2 spaces and to wrap long lines.", "medium",
         {g + "pref_editor_tab_width": "4", g + "indent_type": "1", g + "line_wrapping": "false"},
         {g + "pref_editor_tab_width": "2", g + "indent_type": "0", g + "line_wrapping": "true"},
         open_files=("projects/site/index.html",))
    pref("save_hygiene", "Make Geany clean up files on save: strip trailing spaces, ensure a final new line and "
         "replace tabs with spaces.", "medium",
         {g + "pref_editor_trail_space": "false", g + "pref_editor_new_line": "false",
          g + "pref_editor_replace_tabs": "false"},
         {g + "pref_editor_trail_space": "true", g + "pref_editor_new_line": "true",
          g + "pref_editor_replace_tabs": "true"})
    pref("developer_name", "Set the developer name Geany puts in file templates to Alex Moreno.", "medium",
         {g + "pref_template_developer": "Dana Ruiz"}, {g + "pref_template_developer": "Alex Moreno"})


def project_file(tid, text, difficulty, preset, changes, keep):
    path = "projects/inventory/inventory.geany"
    files = dict(INVENTORY)
    context = ("The setup writes the inventory project and its Geany project file ~/%s with %s and %s, and "
               "opens the project in Geany. Ground truth: %s in the project file (Project > Properties, "
               "saved when the dialog is closed with OK). Checkpoints: one per key (0.8 split), other "
               "settings preserved (0.2)." % (path, json.dumps(preset), json.dumps(keep), json.dumps(changes)))
    add(tid, text, context, difficulty, "geany_pref",
        {"file": path, "files": files, "preset": preset, "changes": changes, "keep": keep, "open": [path]},
        scenario="Project Files")


PROJECT_KEEP = {"project/name": "inventory", "project/base_path": "/home/user/projects/inventory/"}


def projects():
    project_file("project_indent", "In the open Geany project, set the project's indentation to 2-space width "
                 "using spaces.", "medium",
                 {"indentation/indent_width": "4", "indentation/indent_type": "1"},
                 {"indentation/indent_width": "2", "indentation/indent_type": "0"}, PROJECT_KEEP)
    project_file("project_description", "Give the open Geany project the description "
                 "\"Stock keeping for the Harbor warehouse\".", "easy",
                 {"project/description": ""},
                 {"project/description": "Stock keeping for the Harbor warehouse"}, PROJECT_KEEP)
    project_file("project_patterns", "Limit the open Geany project's file patterns to *.py files.", "medium",
                 {"project/file_patterns": ""}, {"project/file_patterns": "*.py;"}, PROJECT_KEEP)
    project_file("project_strip", "Make the open Geany project strip trailing spaces and ensure a final new "
                 "line when its files are saved.", "medium",
                 {"file_prefs/strip_trailing_spaces": "false", "file_prefs/final_new_line": "false"},
                 {"file_prefs/strip_trailing_spaces": "true", "file_prefs/final_new_line": "true"},
                 PROJECT_KEEP)
    project_file("project_rename", "Rename the open Geany project to warehouse (keep its base path).", "easy",
                 {"project/name": "inventory"}, {"project/name": "warehouse"},
                 {"project/base_path": "/home/user/projects/inventory/"})
    project_file("project_long_line", "In the Geany project's properties, set the long-line marker column to "
                 "88 for this project.", "medium",
                 {"long line marker/long_line_behaviour": "1", "long line marker/long_line_column": "72"},
                 {"long line marker/long_line_behaviour": "2", "long line marker/long_line_column": "88"},
                 PROJECT_KEEP)


def edit(tid, text, difficulty, files, open_files, edits, goals, guards, scenario="Code Editing"):
    checks = [dict(c) for c in goals] + [dict(c, guard=True) for c in guards]
    context = ("The setup writes the project (%s) and opens %s in Geany. Ground truth: %s. Checkpoints: %s "
               "(0.8 split); rest of the project intact: %s (0.2, only once a goal check passes)."
               % (", ".join(sorted(files)), ", ".join(open_files),
                  "; ".join("in %s replace %r with %r" % (e["path"], e["old"], e["new"]) for e in edits),
                  "; ".join(c["name"] for c in goals), "; ".join(c["name"] for c in guards) or "nothing"))
    add(tid, text, context, difficulty, "code_edit",
        {"files": files, "open": list(open_files), "edits": edits, "checks": checks}, scenario=scenario)


def chk(name, kind, path, **kw):
    return dict(name=name, kind=kind, path=path, **kw)


INV = "projects/inventory/inventory/"
WEA = "projects/weather/weather/"
SITE_D = "projects/site/"


def code_edits():
    stats, report = INV + "stats.py", INV + "report.py"
    edit("rename_total_value", "In the inventory project, rename the function total_value to inventory_value "
         "everywhere it is defined or used.", "medium", INVENTORY, [stats, report],
         [{"path": stats, "old": "def total_value(", "new": "def inventory_value("},
          {"path": report, "old": "total_value", "new": "inventory_value"}],
         [chk("stats.py defines inventory_value", "defines", stats, func="inventory_value"),
          chk("no total_value left in stats.py", "absent_word", stats, word="total_value"),
          chk("no total_value left in report.py", "absent_word", report, word="total_value"),
          chk("report.py calls inventory_value", "contains", report, text="inventory_value(items)")],
         [chk("stats.py parses", "python_ok", stats), chk("report.py parses", "python_ok", report)])
    edit("rename_low_stock", "Rename low_stock to items_to_reorder in the inventory project (definition and "
         "every use).", "medium", INVENTORY, [stats],
         [{"path": stats, "old": "def low_stock(", "new": "def items_to_reorder("},
          {"path": report, "old": "low_stock", "new": "items_to_reorder"}],
         [chk("stats.py defines items_to_reorder", "defines", stats, func="items_to_reorder"),
          chk("no low_stock in stats.py", "absent_word", stats, word="low_stock"),
          chk("no low_stock in report.py", "absent_word", report, word="low_stock")],
         [chk("stats.py parses", "python_ok", stats), chk("report.py parses", "python_ok", report)])
    conv, fetch, cli = WEA + "convert.py", WEA + "fetch.py", WEA + "cli.py"
    edit("rename_c_to_f", "In the weather project rename c_to_f to celsius_to_fahrenheit across all files.",
         "medium", WEATHER, [conv, fetch],
         [{"path": conv, "old": "def c_to_f(", "new": "def celsius_to_fahrenheit("},
          {"path": fetch, "old": "c_to_f", "new": "celsius_to_fahrenheit"}],
         [chk("convert.py defines celsius_to_fahrenheit", "defines", conv, func="celsius_to_fahrenheit"),
          chk("no c_to_f in convert.py", "absent_word", conv, word="c_to_f"),
          chk("no c_to_f in fetch.py", "absent_word", fetch, word="c_to_f")],
         [chk("convert.py parses", "python_ok", conv), chk("fetch.py parses", "python_ok", fetch)])
    bug = dict(WEATHER)
    bug[conv] = bug[conv].replace("celsius * 9 / 5 + 32", "celsius * 5 / 9 + 32")
    edit("fix_c_to_f", "c_to_f in weather/convert.py gives wrong results (100 C should be 212 F). Fix the "
         "formula.", "medium", bug, [conv],
         [{"path": conv, "old": "celsius * 5 / 9 + 32", "new": "celsius * 9 / 5 + 32"}],
         [chk("formula uses * 9 / 5 + 32", "contains", conv, text="celsius * 9 / 5 + 32"),
          chk("wrong factor gone", "absent", conv, text="celsius * 5 / 9")],
         [chk("convert.py parses", "python_ok", conv),
          chk("f_to_c untouched", "lines_kept", conv, lines=["    return (fahrenheit - 32) * 5 / 9"])])
    bug = dict(WEATHER)
    bug[fetch] = bug[fetch].replace("for i in range(len(readings)):", "for i in range(len(readings) - 1):")
    edit("fix_off_by_one", "daily_highs in weather/fetch.py skips the last day. Fix the loop so every day is "
         "included.", "medium", bug, [fetch],
         [{"path": fetch, "old": "range(len(readings) - 1)", "new": "range(len(readings))"}],
         [chk("loop covers every reading", "contains", fetch, text="range(len(readings))"),
          chk("off-by-one gone", "absent", fetch, text="len(readings) - 1")],
         [chk("fetch.py parses", "python_ok", fetch)])
    bug = dict(INVENTORY)
    bug[stats] = bug[stats].replace("if item.qty < threshold]", "if item.qty > threshold]")
    edit("fix_low_stock", "low_stock in inventory/stats.py returns the well-stocked items instead of the ones "
         "below the threshold. Fix the comparison.", "easy", bug, [stats],
         [{"path": stats, "old": "item.qty > threshold", "new": "item.qty < threshold"}],
         [chk("compares qty < threshold", "contains", stats, text="item.qty < threshold"),
          chk("wrong comparison gone", "absent", stats, text="item.qty > threshold")],
         [chk("stats.py parses", "python_ok", stats)])
    bug = dict(INVENTORY)
    bug[stats] = bug[stats].replace("/ len(items)\n", "/ len(items) + 1\n")
    edit("fix_average", "average_price in inventory/stats.py is off by one. Remove the stray + 1 so it returns "
         "the plain mean.", "easy", bug, [stats],
         [{"path": stats, "old": "/ len(items) + 1", "new": "/ len(items)"}],
         [chk("mean without + 1", "absent", stats, text="len(items) + 1"),
          chk("returns the plain mean", "contains", stats, text="for item in items) / len(items)\n")],
         [chk("stats.py parses", "python_ok", stats)])
    edit("add_logging_import", "Add import logging at the top of inventory/report.py and replace its print "
         "call with logging.info (same arguments).", "medium", INVENTORY, [report],
         [{"path": report, "old": '"""Plain-text stock reports."""\n', "new": '"""Plain-text stock reports."""\n\nimport logging\n'},
          {"path": report, "old": 'print("low:", item)', "new": 'logging.info("low:", item)'}],
         [chk("imports logging", "imports", report, module="logging"),
          chk("no print left", "absent", report, text="print("),
          chk("uses logging.info", "contains", report, text="logging.info(")],
         [chk("report.py parses", "python_ok", report)])
    edit("add_sys_import", "weather/convert.py needs import math at the top (after the module docstring). "
         "Add it.", "easy", WEATHER, [conv],
         [{"path": conv, "old": '"""Unit conversions."""\n', "new": '"""Unit conversions."""\n\nimport math\n'}],
         [chk("imports math", "imports", conv, module="math")],
         [chk("convert.py parses", "python_ok", conv),
          chk("functions kept", "lines_kept", conv, lines=["def c_to_f(celsius):", "def kmh_to_ms(kmh):"])])
    edit("docstring_total_value", "Give total_value in inventory/stats.py the docstring "
         "\"Return the stock value of all items.\"", "easy", INVENTORY, [stats],
         [{"path": stats, "old": "def total_value(items):\n", "new": 'def total_value(items):\n    """Return the stock value of all items."""\n'}],
         [chk("docstring of total_value", "docstring", stats, func="total_value", text="Return the stock value of all items.")],
         [chk("stats.py parses", "python_ok", stats)])
    edit("docstring_kmh", "Document kmh_to_ms in weather/convert.py with the docstring \"Convert km/h to "
         "metres per second.\"", "easy", WEATHER, [conv],
         [{"path": conv, "old": "def kmh_to_ms(kmh):\n", "new": 'def kmh_to_ms(kmh):\n    """Convert km/h to metres per second."""\n'}],
         [chk("docstring of kmh_to_ms", "docstring", conv, func="kmh_to_ms", text="Convert km/h to metres per second.")],
         [chk("convert.py parses", "python_ok", conv)])
    edit("docstrings_models", "In inventory/models.py give Item.value the docstring \"Total value of this "
         "stock line.\" and leave the rest unchanged.", "medium", INVENTORY, [INV + "models.py"],
         [{"path": INV + "models.py", "old": "    def value(self):\n", "new": '    def value(self):\n        """Total value of this stock line."""\n'}],
         [chk("docstring of value", "docstring", INV + "models.py", func="value", text="Total value of this stock line.")],
         [chk("models.py parses", "python_ok", INV + "models.py")])
    init, readme = INV + "__init__.py", "projects/inventory/README.md"
    edit("bump_version", "Bump the inventory project's version from 1.4.0 to 1.5.0 everywhere it appears "
         "(package and README).", "medium", INVENTORY, [init, readme],
         [{"path": init, "old": "1.4.0", "new": "1.5.0"}, {"path": readme, "old": "1.4.0", "new": "1.5.0"}],
         [chk("__init__ says 1.5.0", "contains", init, text='__version__ = "1.5.0"'),
          chk("README says 1.5.0", "contains", readme, text="1.5.0"),
          chk("no 1.4.0 in __init__", "absent", init, text="1.4.0"),
          chk("no 1.4.0 in README", "absent", readme, text="1.4.0")],
         [chk("__init__.py parses", "python_ok", init)], scenario="Search and Replace")
    edit("https_inventory", "Switch the inventory project to HTTPS: replace http://inventory.example.test "
         "with https://inventory.example.test in every file of projects/inventory.", "medium", INVENTORY,
         [report],
         [{"path": report, "old": "http://inventory", "new": "https://inventory"},
          {"path": readme, "old": "http://inventory", "new": "https://inventory"}],
         [chk("report.py uses https", "contains", report, text='"https://inventory.example.test/api"'),
          chk("README uses https", "contains", readme, text="https://inventory.example.test/api"),
          chk("no http:// in report.py", "absent", report, text="http://"),
          chk("no http:// in README", "absent", readme, text="http://")],
         [chk("report.py parses", "python_ok", report)], scenario="Search and Replace")
    edit("weather_v2", "The weather service moved to version 2: change the base URL in the weather project "
         "from http://api.weather.test/v1 to http://api.weather.test/v2.", "easy", WEATHER, [fetch],
         [{"path": fetch, "old": "/v1\"", "new": "/v2\""}],
         [chk("BASE_URL is v2", "contains", fetch, text='BASE_URL = "http://api.weather.test/v2"'),
          chk("no v1 left", "absent", fetch, text="/v1")],
         [chk("fetch.py parses", "python_ok", fetch)], scenario="Search and Replace")
    edit("timeout_30", "Raise the weather project's TIMEOUT constant from 10 to 30 seconds.", "easy", WEATHER,
         [fetch], [{"path": fetch, "old": "TIMEOUT = 10", "new": "TIMEOUT = 30"}],
         [chk("TIMEOUT = 30", "contains", fetch, text="TIMEOUT = 30"),
          chk("old value gone", "absent", fetch, text="TIMEOUT = 10")],
         [chk("fetch.py parses", "python_ok", fetch)])
    edit("add_function", "Add a function ms_to_kmh(ms) to weather/convert.py that returns ms * 3.6.", "medium",
         WEATHER, [conv],
         [{"path": conv, "old": "", "new": "\n\ndef ms_to_kmh(ms):\n    return ms * 3.6\n"}],
         [chk("defines ms_to_kmh", "defines", conv, func="ms_to_kmh"),
          chk("returns ms * 3.6", "contains", conv, text="return ms * 3.6")],
         [chk("convert.py parses", "python_ok", conv),
          chk("existing functions kept", "lines_kept", conv, lines=["def c_to_f(celsius):", "def f_to_c(fahrenheit):"])])
    edit("rename_css_class", "In the bakery site, rename the CSS class headline to page-title in every HTML "
         "and CSS file.", "medium", SITE, [SITE_D + "index.html", SITE_D + "style.css"],
         [{"path": SITE_D + "index.html", "old": "headline", "new": "page-title"},
          {"path": SITE_D + "about.html", "old": "headline", "new": "page-title"},
          {"path": SITE_D + "style.css", "old": ".headline", "new": ".page-title"}],
         [chk("index.html uses page-title", "contains", SITE_D + "index.html", text='class="page-title"'),
          chk("about.html uses page-title", "contains", SITE_D + "about.html", text='class="page-title"'),
          chk("style.css styles .page-title", "contains", SITE_D + "style.css", text=".page-title {"),
          chk("no headline in index.html", "absent", SITE_D + "index.html", text="headline"),
          chk("no headline in about.html", "absent", SITE_D + "about.html", text="headline"),
          chk("no headline in style.css", "absent", SITE_D + "style.css", text="headline")],
         [chk("nav kept", "lines_kept", SITE_D + "style.css", lines=[".top-nav {"])], scenario="Search and Replace")
    edit("fix_js_hours", "The bakery closes at 15:00, but isOpen in app.js says it is open at 15. Make the "
         "closing hour exclusive (hour < 15).", "easy", SITE, [SITE_D + "app.js"],
         [{"path": SITE_D + "app.js", "old": "hour <= 15", "new": "hour < 15"}],
         [chk("uses hour < 15", "contains", SITE_D + "app.js", text="hour < 15"),
          chk("inclusive check gone", "absent", SITE_D + "app.js", text="hour <= 15")],
         [chk("banner kept", "lines_kept", SITE_D + "app.js", lines=["function banner(hour) {"])])
    edit("css_tabs_to_spaces", "style.css of the bakery site is indented with tabs. Re-indent it with two "
         "spaces per level (no tab characters left).", "medium", SITE, [SITE_D + "style.css"],
         [{"path": SITE_D + "style.css", "old": "\t", "new": "  "}],
         [chk("no tabs in style.css", "no_tabs", SITE_D + "style.css"),
          chk("two-space indentation", "contains", SITE_D + "style.css", text="\n  background: #223344;")],
         [chk("rules kept", "lines_kept", SITE_D + "style.css", lines=[".top-nav {", ".headline {"])])
    edit("phone_number", "The bakery's phone number changed to 555-0199. Update about.html.", "easy", SITE,
         [SITE_D + "about.html"], [{"path": SITE_D + "about.html", "old": "555-0142", "new": "555-0199"}],
         [chk("new number", "contains", SITE_D + "about.html", text="555-0199"),
          chk("old number gone", "absent", SITE_D + "about.html", text="555-0142")],
         [chk("hours kept", "contains", SITE_D + "about.html", text="Open Monday to Saturday")])
    edit("remove_debug_print", "Remove the debug print line from the summary function in inventory/report.py.",
         "easy", INVENTORY, [report],
         [{"path": report, "old": '        print("low:", item)\n', "new": ""}],
         [chk("no print left", "absent", report, text="print(")],
         [chk("report.py parses", "python_ok", report),
          chk("reorder line kept", "lines_kept", report, lines=['        lines.append("Reorder: %s" % item.name)'])])
    edit("rename_base_url", "Rename the constant BASE_URL to SERVICE_URL throughout the weather project.",
         "medium", WEATHER, [fetch, cli],
         [{"path": fetch, "old": "BASE_URL", "new": "SERVICE_URL"}, {"path": cli, "old": "BASE_URL", "new": "SERVICE_URL"}],
         [chk("fetch.py defines SERVICE_URL", "contains", fetch, text="SERVICE_URL = "),
          chk("no BASE_URL in fetch.py", "absent_word", fetch, word="BASE_URL"),
          chk("no BASE_URL in cli.py", "absent_word", cli, word="BASE_URL")],
         [chk("fetch.py parses", "python_ok", fetch), chk("cli.py parses", "python_ok", cli)],
         scenario="Search and Replace")
    edit("default_city", "Make the weather CLI default to the city Bergen instead of Oslo.", "easy", WEATHER,
         [cli], [{"path": cli, "old": '"Oslo"', "new": '"Bergen"'}],
         [chk("defaults to Bergen", "contains", cli, text='else "Bergen"'),
          chk("Oslo gone", "absent", cli, text="Oslo")],
         [chk("cli.py parses", "python_ok", cli)])


settings()
projects()
code_edits()
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.json")
with open(out + ".tmp", "w", encoding="utf-8") as fh:
    json.dump({"tasks": TASKS}, fh, indent=2, ensure_ascii=False)
    fh.write("\n")
os.replace(out + ".tmp", out)
print("%d tasks -> %s" % (len(TASKS), out))
