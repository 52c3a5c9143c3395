//! The thunderbird ui-oracle planner, keyboard-first as a person works in Thunderbird: a folder
//! and a message are picked by their names in the accessibility tree (the folder pane's row, the
//! message list's subject), then Thunderbird's one-key commands do the work — `s` star, `1`…`5`
//! tags, `m` read/unread, `Delete` — each waited on until the folder's mbox file is written.
//! A move opens the message's context menu (`Shift+F10`), then `M` (Move To), `L` (Local Folders)
//! and the destination's first letter, which activates it when no other folder starts with it.
//! Drafts: `Ctrl+N`, the recipients, `Alt+S` subject, `Tab` body, `Ctrl+S`, waited on until the
//! Drafts mbox is written.
//!
//! New folders and settings: [`super::settings_plan`]; filters: [`super::filter_plan`].

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{click, key, node, role, typed, wait_desk as wait};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

const LOCAL: &str = ".thunderbird/tw/Mail/Local Folders";

fn field<'a>(v: &'a Value, k: &str) -> Result<&'a str, String> {
    v.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("slot field `{k}` missing in {v}"))
}

/// The one key that performs `op` on the selected message (`None`: selecting it is enough).
fn op_key(op: &Value) -> Result<Option<String>, String> {
    let kind = field(op, "op")?;
    Ok(match kind {
        "flag" | "unflag" => Some("s".into()),
        "unread" => Some("m".into()),
        "read" => None,
        "delete" => Some("Delete".into()),
        // The context menu's keys, then the destination's letter (see `move_letter`).
        "move" | "create_folder" => None,
        "tag" | "untag" => {
            let tag = field(op, "tag")?;
            let n = tag
                .strip_prefix("$label")
                .filter(|n| matches!(*n, "1" | "2" | "3" | "4" | "5"))
                .ok_or_else(|| format!("tag {tag} has no number key (only $label1..5 do)"))?;
            Some(n.to_string())
        }
        other => return Err(format!("tb_mail op `{other}` has no Thunderbird plan yet")),
    })
}

/// The key that picks `dest` in the Move To > Local Folders menu: its first letter, which
/// Thunderbird activates at once only when no other folder shown there starts with it.
fn move_letter(slots: &Value, dest: &str) -> Result<String, String> {
    let first = |s: &str| s.chars().next().map(|c| c.to_ascii_lowercase());
    let letter = first(dest).ok_or("tb_mail: empty destination")?;
    let mut shown: Vec<String> = ["Trash", "Drafts", "Sent", "Templates"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if let Some(f) = slots.get("folders").and_then(Value::as_object) {
        shown.extend(f.keys().cloned());
    }
    if shown.iter().any(|f| f != dest && first(f) == Some(letter)) {
        return Err(format!(
            "tb_mail: another folder starts with {letter:?} like {dest}: its menu letter is ambiguous"
        ));
    }
    Ok(letter.to_string())
}

/// Selects `folder` in the folder pane and waits for its message list.
fn open_folder(folder: &str) -> Vec<PlanStep> {
    vec![
        click(node("tree item:Local Folders")),
        // Right expands the account (or, once expanded, moves to its first folder): never collapses.
        key("Right"),
        wait(node(&format!("section:{folder}"))),
        click(node(&format!("section:{folder}"))),
        wait(node(&format!("heading:{folder}"))),
    ]
}

/// The plan of a `tb_mail` task: per message, select it and press its keys.
fn mail(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let ops = slots
        .get("ops")
        .and_then(Value::as_array)
        .ok_or("tb_mail: slot `ops` missing")?;
    // New folders first (a move may go there); read/unread last: selecting a message marks it
    // read, so an unread toggle must come after.
    let mut ordered: Vec<&Value> = ops.iter().collect();
    ordered.sort_by_key(|o| match o["op"].as_str() {
        Some("create_folder") => 0,
        Some("read" | "unread") => 2,
        _ => 1,
    });
    let mut steps = vec![wait(node("push button:New Message"))];
    let mut current = "";
    for op in ordered {
        if op["op"] == "create_folder" {
            steps.extend(super::settings_plan::new_folder(field(op, "name")?));
            current = "";
            continue;
        }
        let k = op_key(op)?;
        let folder = field(op, "folder")?;
        let subject = field(op, "subject")?;
        if folder != current {
            steps.extend(open_folder(folder));
            current = folder;
        }
        let row = node(&format!("static:{subject}"));
        steps.extend([wait(row.clone()), click(row)]);
        if let Some(k) = k {
            steps.push(key(&k));
        }
        if op["op"] == "move" {
            let dest = field(op, "to")?;
            steps.extend([
                key("shift+F10"),
                wait(node("menu:Move To")),
                key("m"),
                key("l"),
                key(&move_letter(slots, dest)?),
            ]);
        }
        let written = match op["op"].as_str() {
            Some("delete") => "Trash",
            Some("move") => field(op, "to")?,
            _ => folder,
        };
        steps.push(wait(role("saved", &format!("{LOCAL}/{written}"))));
    }
    Ok(steps)
}

/// The plan of a `tb_draft` task.
fn draft(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let d = slots.get("draft").ok_or("tb_draft: slot `draft` missing")?;
    let to: Vec<&str> = d
        .get("to")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if to.is_empty() {
        return Err("tb_draft: no recipient".into());
    }
    let subject = field(d, "subject")?;
    Ok(vec![
        wait(node("push button:New Message")),
        key("ctrl+n"),
        wait(role("focused_window", "Write: (no subject) - Thunderbird")),
        typed(&to.join(", ")),
        key("Return"),
        key("alt+s"),
        typed(subject),
        key("Tab"),
        typed(field(d, "body")?),
        wait(role(
            "focused_window",
            &format!("Write: {subject} - Thunderbird"),
        )),
        key("ctrl+s"),
        wait(role("saved", &format!("{LOCAL}/Drafts"))),
    ])
}

/// Plans thunderbird tasks through Thunderbird's own window.
pub struct ThunderbirdPlanner;

impl UiPlanner for ThunderbirdPlanner {
    fn apps(&self) -> &[&'static str] {
        &["thunderbird"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let slots = brief.structured.get("slots").cloned().unwrap_or(Value::Null);
        match template.rsplit('/').next().unwrap_or(template) {
            "tb_mail" => mail(&slots),
            "tb_draft" => draft(&slots),
            "tb_prefs" => super::settings_plan::prefs(&slots),
            "tb_filter" => super::filter_plan::filter(&slots),
            other => Err(format!("template {other} has no Thunderbird plan yet")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ops_become_one_key_each_and_unread_comes_last() {
        let slots = json!({"ops": [
            {"op": "unread", "folder": "Inbox", "subject": "A", "id": "<a>"},
            {"op": "tag", "tag": "$label4", "folder": "Inbox", "subject": "A", "id": "<a>"},
            {"op": "delete", "folder": "Inbox", "subject": "B", "id": "<b>"}]});
        let steps = mail(&slots).unwrap();
        let keys: Vec<&str> = steps
            .iter()
            .filter_map(|s| match s {
                PlanStep::Key { key } => Some(key.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(keys, ["Right", "4", "Delete", "m"]);
        assert!(steps.contains(&wait(role("saved", &format!("{LOCAL}/Trash")))));
        let moved = json!({"folders": {"Inbox": [], "Archive": []},
            "ops": [{"op": "move", "folder": "Inbox", "subject": "A", "to": "Archive"}]});
        let steps = mail(&moved).unwrap();
        assert!(steps.contains(&key("a")) && steps.contains(&key("shift+F10")));
        let tricky = json!({"folders": {"Inbox": [], "Taxes": []},
            "ops": [{"op": "move", "folder": "Inbox", "subject": "A", "to": "Taxes"}]});
        assert!(mail(&tricky).unwrap_err().contains("ambiguous"));
        // Fails on the old planner, which refused new folders.
        let made = json!({"ops": [{"op": "create_folder", "name": "X"}]});
        assert!(mail(&made)
            .unwrap()
            .contains(&wait(role("saved", &format!("{LOCAL}/X")))));
        let bad = json!({"ops": [{"op": "tag", "tag": "urgent", "folder": "Inbox", "subject": "A"}]});
        assert!(mail(&bad).is_err());
    }
}
