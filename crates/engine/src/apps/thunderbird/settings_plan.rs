//! Thunderbird plans for settings and new folders.
//!
//! Settings: the Settings tab (the Spaces toolbar's Settings button), its "Find in Settings" box
//! searched for "config editor", the Config Editor… button, then per preference its name typed
//! into "Search preference name" and the row's Toggle (a boolean not yet as wanted) or Edit (a
//! number or text: the value typed, Enter) — the way a person sets a preference the Settings
//! pages spread over scrolled panes. Each is waited on until prefs.js holds the `user_pref` line.
//!
//! New folders: the folder pane's Local Folders row, its context menu (`Shift+F10`), New Folder…,
//! the name typed and Enter, waited on until the folder's mbox file is on disk.

use serde_json::Value;

use crate::rollout::plan_steps::{click, key, node, role, typed, wait_desk as wait};
use crate::rollout::ui_plan::PlanStep;

const PREFS_JS: &str = ".thunderbird/tw/prefs.js";
const LOCAL: &str = ".thunderbird/tw/Mail/Local Folders";

/// How prefs.js writes `value` (`true`, `2`, `"Dana M. Ruiz"`).
fn pref_literal(value: &Value) -> String {
    value.to_string()
}

/// The steps setting one preference in the Config Editor (already open).
fn one_pref(name: &str, preset: Option<&Value>, goal: &Value) -> Result<Vec<PlanStep>, String> {
    let mut steps = vec![
        PlanStep::Fill {
            target: node("entry:Search preference name"),
            text: name.into(),
        },
        // The box holds the whole name (a row shown for a part typed so far may be another
        // preference's), then its row is listed.
        wait(node(&format!("entry:{name}"))),
        wait(node(&format!("row header:{name}"))),
    ];
    match goal {
        Value::Bool(want) => {
            if preset.and_then(Value::as_bool) != Some(*want) {
                steps.push(click(node("push button:Toggle")));
            }
        }
        Value::Number(_) | Value::String(_) => {
            let text = goal.as_str().map_or_else(|| goal.to_string(), String::from);
            steps.extend([
                click(node("push button:Edit")),
                // The row's value field takes the focus from the search box.
                wait(role("no_node", "entry:Search preference name[focused]")),
                key("ctrl+a"),
                typed(&text),
                key("Return"),
            ]);
        }
        other => return Err(format!("tb_prefs: {name} = {other} has no Config Editor plan")),
    }
    steps.push(wait(role(
        "contains",
        &format!("{PREFS_JS}::user_pref(\"{name}\", {});", pref_literal(goal)),
    )));
    Ok(steps)
}

/// The plan of a `tb_prefs` task.
pub fn prefs(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let changes = slots
        .get("changes")
        .and_then(Value::as_object)
        .ok_or("tb_prefs: slot `changes` missing")?;
    let preset = slots.get("preset").cloned().unwrap_or(Value::Null);
    let mut steps = vec![
        wait(node("push button:New Message")),
        click(node("push button:Settings")),
        PlanStep::Fill {
            target: node("entry:Find in Settings"),
            text: "config editor".into(),
        },
        click(node("push button:Config Editor")),
        wait(node("entry:Search preference name")),
    ];
    for (name, goal) in changes {
        steps.extend(one_pref(name, preset.get(name), goal)?);
    }
    Ok(steps)
}

/// The steps creating the folder `name` under Local Folders.
pub fn new_folder(name: &str) -> Vec<PlanStep> {
    vec![
        // Home: the account's row (once expanded, its extents cover its folders' rows too).
        click(node("tree item:Local Folders")),
        key("Home"),
        key("shift+F10"),
        wait(node("menu item:New Folder")),
        click(node("menu item:New Folder")),
        wait(node("entry:Name:[focused]")),
        typed(name),
        key("Return"),
        wait(role("saved", &format!("{LOCAL}/{name}"))),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fails on the old planner, which refused every settings task.
    #[test]
    fn prefs_go_through_the_config_editor_and_wait_for_prefs_js() {
        let slots = json!({"preset": {"a.b": true, "c.d": 5, "e.f": "Dana"},
            "changes": {"a.b": false, "c.d": 2, "e.f": "Dana M."}});
        let steps = prefs(&slots).unwrap();
        assert!(steps.contains(&click(node("push button:Toggle"))));
        assert!(steps.contains(&typed("2")) && steps.contains(&typed("Dana M.")));
        let line = format!("{PREFS_JS}::user_pref(\"e.f\", \"Dana M.\");");
        assert!(steps.contains(&wait(role("contains", &line))));
        let set = json!({"preset": {"a.b": false}, "changes": {"a.b": false}});
        assert!(!prefs(&set).unwrap().contains(&click(node("push button:Toggle"))));
        let steps = new_folder("Finance");
        assert!(steps.contains(&wait(role("saved", &format!("{LOCAL}/Finance")))));
    }
}
