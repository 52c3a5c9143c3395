//! code_editor recipes (Geany settings and edits of a generated Python module).

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};

/// (geany.conf key, start value, goal value, what the instruction says).
const PREFS: [(&str, &str, &str, &str); 10] = [
    ("pref_editor_tab_width", "4", "2", "set the indentation width to 2"),
    ("indent_type", "1", "0", "indent with spaces instead of tabs"),
    ("show_linenumber_margin", "false", "true", "show line numbers"),
    ("line_wrapping", "false", "true", "wrap long lines"),
    ("pref_editor_trail_space", "false", "true", "strip trailing spaces on save"),
    ("pref_editor_new_line", "false", "true", "ensure a final new line on save"),
    ("pref_editor_replace_tabs", "false", "true", "replace tabs with spaces on save"),
    ("long_line_column", "72", "100", "put the long-line marker at column 100"),
    ("show_white_space", "false", "true", "show white space"),
    ("use_folding", "true", "false", "turn code folding off"),
];

const CONF: &str = ".config/geany/geany.conf";

/// Settings in geany.conf: one (easy) to several (hard) preferences.
pub fn pref(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(PREFS.len());
    let start = ctx.idx(PREFS.len());
    let mut preset = Map::new();
    let mut changes = Map::new();
    let mut said = Vec::new();
    for i in 0..n {
        let (key, from, to, phrase) = PREFS[(start + i) % PREFS.len()];
        preset.insert(format!("geany/{key}"), json!(from));
        changes.insert(format!("geany/{key}"), json!(to));
        said.push(phrase.to_string());
    }
    let keep = json!({"geany/editor_font": "Monospace 10", "geany/pref_template_developer": "Dana Ruiz"});
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("In Geany, {}.", and_list(&said)),
        _ => format!("Change Geany's preferences so that it will {}.", and_list(&said)),
    };
    let context = format!("The setup writes ~/{CONF} with {} and opens Geany. Ground truth: {} in geany.conf. Checkpoints: one per key (0.8 split), other settings preserved (0.2).", Value::Object(preset.clone()), Value::Object(changes.clone()));
    let file = format!("projects/scratch-{}/notes.py", ctx.serial % 1000);
    let files = json!({ file.clone(): "\"\"\"Scratch notes.\"\"\"\n\nTODO = []\n" });
    let slots = json!({"file": CONF, "files": files, "preset": preset, "changes": changes, "keep": keep, "open": [file]});
    Some(ctx.draft(v, core, context, "geany_pref", slots, vec!["code_editor"]))
}

/// Renames a function of a generated two-file Python project (definition and call site).
pub fn rename(ctx: &mut Ctx<'_>) -> Option<Draft> {
    const NAMES: [(&str, &str); 6] = [
        ("load_rows", "read_rows"),
        ("parse_date", "to_date"),
        ("send_report", "deliver_report"),
        ("clean_name", "normalize_name"),
        ("fetch_prices", "download_prices"),
        ("make_slug", "slugify"),
    ];
    let (old, new) = NAMES[ctx.idx(NAMES.len())];
    let dir = format!("projects/tool-{}", ctx.serial % 1000);
    let lib = format!("{dir}/lib.py");
    let main = format!("{dir}/main.py");
    let files = json!({
        lib.clone(): format!("\"\"\"Helpers.\"\"\"\n\n\ndef {old}(value):\n    return value\n"),
        main.clone(): format!("\"\"\"Entry point.\"\"\"\n\nfrom lib import {old}\n\n\ndef run(value):\n    return {old}(value)\n"),
    });
    let edits = json!([
        {"path": lib, "old": format!("def {old}("), "new": format!("def {new}(")},
        {"path": main, "old": old, "new": new},
    ]);
    let checks = json!([
        {"name": format!("lib.py defines {new}"), "kind": "defines", "path": lib, "func": new},
        {"name": format!("no {old} in lib.py"), "kind": "absent_word", "path": lib, "word": old},
        {"name": format!("no {old} in main.py"), "kind": "absent_word", "path": main, "word": old},
        {"name": "lib.py parses", "kind": "python_ok", "path": lib, "guard": true},
        {"name": "main.py parses", "kind": "python_ok", "path": main, "guard": true},
    ]);
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("In {dir}, rename the function {old} to {new} everywhere."),
        _ => format!("Rename {old} to {new} in the project {dir} (definition, import and call)."),
    };
    let context = format!("The setup writes {lib} and {main} and opens them in Geany. Ground truth: {new} defined in lib.py, imported and called in main.py, no {old} left. Checkpoints: defined (0.27), gone from each file (0.27 each); both files parse (0.2).");
    let slots = json!({"files": files, "open": [lib, main], "edits": edits, "checks": checks});
    Some(ctx.draft(v, core, context, "code_edit", slots, vec!["code_editor"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[("code_editor_pref", pref), ("code_editor_rename", rename)];
