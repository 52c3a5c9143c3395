//! The plan of a `tb_filter` task, as a person makes a filter: Local Folders' context menu
//! (`Home`, `Shift+F10`) > Message Filters, New…, the name typed; in the search-term row
//! ("Subject contains" by default) the attribute picked from its menu and the value typed; in the
//! action row the action picked from its menu (and for a move the folder under Local Folders);
//! OK, then `Escape` closes Message Filters, which writes msgFilterRules.dat — waited on until
//! it holds the filter's name. The editor's combo boxes have no names: each is found inside its
//! row (`within` targets).

use serde_json::Value;

use crate::rollout::plan_steps::{click, key, node, role, typed, wait_desk as wait};
use crate::rollout::ui_plan::PlanStep;

const RULES: &str = ".thunderbird/tw/Mail/Local Folders/msgFilterRules.dat";
const TERM_ROW: &str = "list item:*contains + −";
const ACTIONS: &str = "list box:Perform these actions:";

/// Opens the combo `within` names and picks `item` from its menu.
fn pick(combo: &str, item: &str) -> Vec<PlanStep> {
    let entry = format!("menu item:{item}");
    vec![
        click(role("within", combo)),
        wait(node(&entry)),
        click(node(&entry)),
        wait(role("no_node", &entry)),
    ]
}

/// The search term's attribute as the menu names it.
fn attribute(attr: &str) -> Result<&'static str, String> {
    Ok(match attr {
        "subject" => "Subject",
        "from" => "From",
        "to" => "To",
        "body" => "Body",
        "cc" => "Cc",
        other => return Err(format!("tb_filter: search attribute {other} has no plan")),
    })
}

/// `(attribute, value)` of a one-term `AND (attr,contains,value)` condition.
fn term(condition: &str) -> Result<(&str, &str), String> {
    let inner = condition
        .strip_prefix("AND (")
        .and_then(|c| c.strip_suffix(')'))
        .ok_or(format!("tb_filter: condition {condition:?} is not one AND term"))?;
    let mut parts = inner.splitn(3, ',');
    let (attr, op, value) = (parts.next(), parts.next(), parts.next());
    match (attr, op, value) {
        (Some(a), Some("contains"), Some(v)) => Ok((a, v)),
        _ => Err(format!("tb_filter: condition {condition:?} is not `contains`")),
    }
}

/// The steps of one action row (the first, Move Message to by default).
fn action(kind: &str, arg: &str) -> Result<Vec<PlanStep>, String> {
    let first = format!("{ACTIONS}>>combo box:");
    Ok(match kind {
        "Move to folder" => {
            let dest = arg.rsplit('/').next().unwrap_or(arg).replace("%20", " ");
            let mut steps = vec![
                click(role("within", &format!("{ACTIONS}>>combo box:#2"))),
                wait(node("menu:Local Folders")),
                click(node("menu:Local Folders")),
                wait(node(&format!("menu item:{dest}"))),
                click(node(&format!("menu item:{dest}"))),
            ];
            steps.push(wait(node(&format!(
                "list item:Move Message to {dest} on Local Folders + −"
            ))));
            steps
        }
        "Mark read" => pick(&first, "Mark As Read"),
        "Mark flagged" => pick(&first, "Add Star"),
        "AddTag" => {
            let tag = match arg {
                "$label1" => "Important",
                "$label2" => "Work",
                "$label3" => "Personal",
                "$label4" => "To Do",
                "$label5" => "Later",
                other => return Err(format!("tb_filter: tag {other} has no plan")),
            };
            let mut steps = pick(&first, "Tag Message");
            if tag != "Important" {
                steps.extend(pick(&format!("{ACTIONS}>>combo box:#2"), tag));
            }
            steps
        }
        other => return Err(format!("tb_filter: action {other} has no plan")),
    })
}

/// The plan of a `tb_filter` task.
pub fn filter(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let f = slots.get("filter").ok_or("tb_filter: slot `filter` missing")?;
    let text = |k: &str| {
        f.get(k)
            .and_then(Value::as_str)
            .ok_or(format!("tb_filter: filter.{k} missing"))
    };
    let name = text("name")?;
    let (attr, value) = term(text("condition")?)?;
    let actions = f
        .get("actions")
        .and_then(Value::as_array)
        .ok_or("tb_filter: filter.actions missing")?;
    let [one] = actions.as_slice() else {
        return Err("tb_filter: only one action has a plan".into());
    };
    let kind = one.get(0).and_then(Value::as_str).unwrap_or("");
    let arg = one.get(1).and_then(Value::as_str).unwrap_or("");
    let mut steps = vec![
        wait(node("push button:New Message")),
        click(node("tree item:Local Folders")),
        key("Home"),
        key("shift+F10"),
        wait(node("menu item:Message Filters")),
        click(node("menu item:Message Filters")),
        wait(node("push button:New")),
        click(node("push button:New")),
        wait(node("entry:Filter name:[focused]")),
        typed(name),
    ];
    let attr = attribute(attr)?;
    if attr != "Subject" {
        steps.extend(pick(&format!("{TERM_ROW}>>combo box:"), attr));
        steps.push(wait(node(&format!("list item:{attr} contains + −"))));
    }
    steps.extend([click(role("within", &format!("{TERM_ROW}>>entry:"))), typed(value)]);
    steps.extend(action(kind, arg)?);
    steps.extend([
        click(node("push button:OK")),
        wait(role("no_node", "frame:Filter Rules")),
        key("Escape"),
        wait(role("no_node", "frame:Message Filters")),
        wait(role("contains", &format!("{RULES}::name=\"{name}\""))),
    ]);
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fails on the old planner, which refused every filter task.
    #[test]
    fn a_filter_names_its_term_and_action_and_waits_for_the_rules_file() {
        let slots = json!({"filter": {"name": "Maya to Projects",
            "condition": "AND (from,contains,maya@harbor.test)",
            "actions": [["Move to folder", "mailbox://nobody@Local%20Folders/Projects"]]}});
        let steps = filter(&slots).unwrap();
        assert!(steps.contains(&click(node("menu item:From"))));
        assert!(steps.contains(&typed("maya@harbor.test")));
        assert!(steps.contains(&click(node("menu item:Projects"))));
        let done = format!("{RULES}::name=\"Maya to Projects\"");
        assert!(steps.contains(&wait(role("contains", &done))));
        let tag = json!({"filter": {"name": "U", "condition": "AND (subject,contains,urgent)",
            "actions": [["AddTag", "$label4"]]}});
        let steps = filter(&tag).unwrap();
        assert!(steps.contains(&click(node("menu item:To Do"))));
        assert!(!steps.contains(&click(node("menu item:From"))));
        let or = json!({"filter": {"name": "U", "condition": "OR (subject,contains,a)",
            "actions": [["Mark read", ""]]}});
        assert!(filter(&or).is_err());
    }
}
