//! The Calc ui-oracle planner: keyboard-first plans through Calc's own screen — the Name Box to
//! reach a cell or select a range, typing and Return to enter values and formulas, Ctrl+B/I/U
//! and Ctrl+Shift+1/4/5 for formats, the menus for sheet commands, Ctrl+S to save — each step
//! checked against the accessibility tree (the Name Box shows the cell, the dialog opened and
//! closed) and the save against the document on disk.

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::ui_plan::{PlanStep, Target, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

fn role(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: name.into(),
    }
}

fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

fn wait(target: Target, ms: u64) -> PlanStep {
    PlanStep::WaitFor {
        target,
        timeout_ms: ms,
    }
}

fn click(target: Target) -> PlanStep {
    PlanStep::Click { target }
}

/// Put the cursor on `cell` (or select the range) through the Name Box.
fn goto(cell: &str) -> Vec<PlanStep> {
    vec![
        PlanStep::Fill {
            target: role("name_box", ""),
            text: cell.into(),
        },
        key("Return"),
        wait(role("cell", cell), 15_000),
    ]
}

/// Open `menu`, then choose `item` (a path of submenu labels, the last a menu item).
fn menu(top: &str, path: &[&str]) -> Vec<PlanStep> {
    let mut out = vec![click(role("node", &format!("menu:{top}")))];
    for (i, label) in path.iter().enumerate() {
        // A toggle (Protect Sheet, Freeze Cells) is a check menu item.
        let kind = if i + 1 == path.len() {
            "menu item|check menu item"
        } else {
            "menu"
        };
        out.push(click(role("node", &format!("{kind}:{label}"))));
    }
    out
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn slot<'a>(slots: &'a Value, k: &str, t: &str) -> Result<&'a Value, String> {
    slots
        .get(k)
        .ok_or_else(|| format!("template {t}: slot `{k}` missing"))
}

fn slot_str<'a>(slots: &'a Value, k: &str, t: &str) -> Result<&'a str, String> {
    slot(slots, k, t)?
        .as_str()
        .ok_or_else(|| format!("template {t}: slot `{k}` is not a string"))
}

/// The steps of `template` (after the window is up, before the save).
fn body(template: &str, s: &Value) -> Result<Vec<PlanStep>, String> {
    let t = template;
    let mut out = Vec::new();
    match t {
        "fill_cells" | "formula_total" => {
            let key_name = if t == "fill_cells" { "cells" } else { "formulas" };
            let cells = slot(s, key_name, t)?
                .as_object()
                .ok_or_else(|| format!("template {t}: `{key_name}` is not an object"))?;
            for (cell, value) in cells {
                out.extend(goto(cell));
                out.push(PlanStep::Type {
                    text: text_of(value),
                });
                out.push(key("Return"));
            }
        }
        "style_range" | "number_format" => {
            out.extend(goto(slot_str(s, "range", t)?));
            let chord = match (t, slot_str(s, if t == "style_range" { "style" } else { "kind" }, t)?) {
                (_, "bold") => "ctrl+b",
                (_, "italic") => "ctrl+i",
                (_, "underline") => "ctrl+u",
                (_, "percent") => "ctrl+shift+5",
                (_, "decimal") => "ctrl+shift+1",
                (_, "currency") => "ctrl+shift+4",
                (_, other) => return Err(format!("template {t}: no shortcut for {other:?}")),
            };
            out.push(key(chord));
        }
        "named_range" => {
            let name = slot_str(s, "name", t)?;
            out.extend(goto(slot_str(s, "range", t)?));
            out.push(PlanStep::Fill {
                target: role("name_box", ""),
                text: name.into(),
            });
            out.push(key("Return"));
            out.push(wait(role("node", &format!("text:{name}")), 15_000));
        }
        "sort_column" => {
            out.extend(goto(&format!("{}2", slot_str(s, "column", t)?)));
            let button = match slot_str(s, "order", t)? {
                "descending" => "Sort Descending",
                _ => "Sort Ascending",
            };
            out.push(click(role("node", &format!("push button:{button}"))));
        }
        "rename_sheet" => {
            out.extend(menu("Sheet", &["Rename Sheet..."]));
            out.push(wait(role("node", "dialog:Rename Sheet"), 15_000));
            out.push(key("ctrl+a"));
            out.push(PlanStep::Type {
                text: slot_str(s, "new_name", t)?.into(),
            });
            out.push(key("Return"));
            out.push(wait(role("no_node", "dialog:Rename Sheet"), 15_000));
        }
        "freeze_row" => {
            let item = match slot_str(s, "freeze", t)? {
                "B1" => "Freeze First Column",
                _ => "Freeze First Row",
            };
            out.extend(menu("View", &["Freeze Cells", item]));
        }
        "protect_sheet" => {
            out.extend(menu("Tools", &["Protect Sheet..."]));
            out.push(wait(role("node", "dialog:Protect Sheet"), 15_000));
            out.push(click(role("node", "push button:OK")));
            out.push(wait(role("no_node", "dialog:Protect Sheet"), 15_000));
        }
        other => return Err(format!("template {other} has no Calc plan")),
    }
    Ok(out)
}

/// The whole plan of a Calc task: wait for the document's window, the template's steps, save.
pub fn calc_plan(template: &str, slots: &Value) -> Result<Vec<PlanStep>, String> {
    let file = slot_str(slots, "file", template)?;
    let base = file.rsplit('/').next().unwrap_or(file);
    let mut plan = vec![wait(
        role("focused_window", &format!("{base} - LibreOffice Calc")),
        60_000,
    )];
    plan.extend(body(template, slots)?);
    plan.push(key("ctrl+s"));
    plan.push(wait(role("saved", file), 30_000));
    Ok(plan)
}

/// Plans Calc tasks through Calc's screen.
pub struct CalcPlanner;

impl UiPlanner for CalcPlanner {
    fn apps(&self) -> &[&'static str] {
        &["libreoffice_calc"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let template = template.rsplit('/').next().unwrap_or(template);
        let slots = brief.structured.get("slots").cloned().unwrap_or_default();
        Ok(calc_plan(template, &slots)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_task_has_a_plan_that_saves_its_file() {
        let tasks: Value =
            serde_json::from_str(include_str!("tasks.json")).unwrap();
        for t in tasks["tasks"].as_array().unwrap() {
            let plan = calc_plan(t["template"].as_str().unwrap(), &t["slots"]).unwrap();
            assert_eq!(plan[plan.len() - 2], key("ctrl+s"), "{}", t["task_id"]);
        }
        assert!(calc_plan("no_such", &serde_json::json!({"file": "a.xlsx"}))
            .unwrap_err()
            .contains("no Calc plan"));
    }
}
