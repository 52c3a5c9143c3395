//! Plans of the `chrome_bookmarks` tasks through Chromium's bookmark manager (chrome://bookmarks):
//! a root folder from the folder tree, a subfolder by its row and Return, the Organize menu's
//! "Add new bookmark" / "Add new folder" dialogs, a row's "Edit" dialog, Delete, and Ctrl+X /
//! Ctrl+V to move — each step waited for in the accessibility tree (the folder selected, the
//! dialog closed, the row shown or gone).

use std::collections::HashMap;

use serde_json::Value;

use super::planner::{click, gone, go, key, node, wait};
use crate::rollout::ui_plan::PlanStep;

/// The manager's label of a root folder (`bookmark_bar`, `other`, `synced`).
fn root_label(root: &str) -> Result<&'static str, String> {
    match root {
        "bookmark_bar" => Ok("Bookmarks bar"),
        "other" => Ok("Other bookmarks"),
        "synced" => Ok("Mobile bookmarks"),
        other => Err(format!("chrome_bookmarks: unknown root folder {other:?}")),
    }
}

/// Show the folder `path` (`bookmark_bar/Work`) in the manager's list.
fn open(path: &str) -> Result<Vec<PlanStep>, String> {
    let mut parts = path.split('/');
    let root = root_label(parts.next().unwrap_or_default())?;
    let mut out = vec![
        click(&format!("tree item:{root}")),
        wait(node(&format!("tree item:{root}[selected]"))),
    ];
    for sub in parts {
        // Select the folder's row, Return opens it (the tree then shows it selected).
        out.extend([
            click(&format!("table row:{sub}")),
            wait(node(&format!("table row:{sub}[selected]"))),
            key("Return"),
            wait(node(&format!("tree item:{sub}[selected]"))),
        ]);
    }
    Ok(out)
}

/// Where each bookmark is: url -> (folder path, name), from the task's starting tree.
fn index(tree: &Value) -> HashMap<String, (String, String)> {
    fn walk(nodes: &Value, path: &str, out: &mut HashMap<String, (String, String)>) {
        for n in nodes.as_array().into_iter().flatten() {
            let name = n["name"].as_str().unwrap_or_default();
            if let Some(url) = n["url"].as_str() {
                out.insert(url.to_string(), (path.to_string(), name.to_string()));
            } else {
                walk(&n["children"], &format!("{path}/{name}"), out);
            }
        }
    }
    let mut out = HashMap::new();
    for (root, nodes) in tree.as_object().into_iter().flatten() {
        walk(nodes, root, &mut out);
    }
    out
}

fn s<'a>(op: &'a Value, k: &str) -> Result<&'a str, String> {
    op.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("chrome_bookmarks: an op lacks `{k}`: {op}"))
}

/// An Organize-menu dialog: open it, fill its fields, Return, wait until it has closed.
fn organize(item: &str, fields: &[(&str, &str)], shown: &str) -> Vec<PlanStep> {
    let mut out = vec![
        click("push button:Organize"),
        click(&format!("menu item:{item}")),
        wait(node("dialog:")),
    ];
    for (field, text) in fields {
        out.push(PlanStep::Fill {
            target: node(&format!("entry:{field}")),
            text: (*text).into(),
        });
    }
    out.extend([
        key("Return"),
        gone("dialog:"),
        wait(node(&format!("table row:{shown}"))),
    ]);
    out
}

/// The steps of one op, keeping `at` (where each bookmark is) up to date.
fn op_steps(op: &Value, at: &mut HashMap<String, (String, String)>) -> Result<Vec<PlanStep>, String> {
    let kind = s(op, "op")?;
    let mut out = Vec::new();
    let locate = |at: &HashMap<String, (String, String)>, url: &str| {
        at.get(url)
            .cloned()
            .ok_or_else(|| format!("chrome_bookmarks: {url} is not in the starting tree"))
    };
    match kind {
        "add" => {
            let (folder, name, url) = (s(op, "folder")?, s(op, "name")?, s(op, "url")?);
            out.extend(open(folder)?);
            out.extend(organize("Add new bookmark", &[("Name", name), ("URL", url)], name));
            at.insert(url.into(), (folder.into(), name.into()));
        }
        "mkdir" => {
            let (folder, name) = (s(op, "folder")?, s(op, "name")?);
            out.extend(open(folder)?);
            out.extend(organize("Add new folder", &[("Name", name)], name));
        }
        "delete" => {
            let (folder, name) = locate(at, s(op, "url")?)?;
            out.extend(open(&folder)?);
            out.extend([
                click(&format!("table row:{name}")),
                wait(node(&format!("table row:{name}[selected]"))),
                key("Delete"),
                gone(&format!("table row:{name}")),
            ]);
        }
        "rename" => {
            let url = s(op, "url")?;
            let new = s(op, "name")?;
            let (folder, name) = locate(at, url)?;
            out.extend(open(&folder)?);
            out.extend([
                click(&format!("table row:{name}")),
                click(&format!("push button:More actions for {name}")),
                click("menu item:Edit"),
                wait(node("dialog:")),
                PlanStep::Fill {
                    target: node("entry:Name"),
                    text: new.into(),
                },
                key("Return"),
                gone("dialog:"),
                wait(node(&format!("table row:{new}"))),
            ]);
            at.insert(url.into(), (folder, new.into()));
        }
        "move" => {
            let url = s(op, "url")?;
            let to = s(op, "folder")?;
            let (folder, name) = locate(at, url)?;
            out.extend(open(&folder)?);
            out.extend([
                click(&format!("table row:{name}")),
                wait(node(&format!("table row:{name}[selected]"))),
                key("ctrl+x"),
                gone(&format!("table row:{name}")),
            ]);
            out.extend(open(to)?);
            out.extend([key("ctrl+v"), wait(node(&format!("table row:{name}")))]);
            at.insert(url.into(), (to.into(), name));
        }
        other => return Err(format!("chrome_bookmarks: op {other:?} has no plan")),
    }
    Ok(out)
}

/// The plan of a `chrome_bookmarks` task (before the wait for Bookmarks on disk).
pub fn bookmarks(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let ops = slots
        .get("ops")
        .and_then(Value::as_array)
        .ok_or("chrome_bookmarks: slot `ops` missing")?;
    let mut at = index(slots.get("tree").unwrap_or(&Value::Null));
    let mut steps = go("chrome://bookmarks/", "tree item:Bookmarks bar");
    for op in ops {
        steps.extend(op_steps(op, &mut at)?);
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_move_opens_the_source_folder_cuts_opens_the_target_and_pastes() {
        let slots = json!({
            "tree": {"bookmark_bar": [{"name": "Work", "children": [{"name": "Tracker", "url": "http://t/"}]}]},
            "ops": [{"op": "mkdir", "folder": "other", "name": "Archive"},
                    {"op": "move", "url": "http://t/", "folder": "other/Archive"}]
        });
        let plan = bookmarks(&slots).unwrap();
        let cut = plan.iter().position(|s| *s == key("ctrl+x")).unwrap();
        let paste = plan.iter().position(|s| *s == key("ctrl+v")).unwrap();
        let archive = click("table row:Archive");
        let work = click("table row:Work");
        let opened = |step: &PlanStep| plan.iter().position(|s| s == step).unwrap();
        assert!(opened(&work) < cut && cut < opened(&archive) && opened(&archive) < paste);
        let bad = json!({"tree": {}, "ops": [{"op": "delete", "url": "http://x/"}]});
        assert!(bookmarks(&bad).unwrap_err().contains("not in the starting tree"));
    }
}
