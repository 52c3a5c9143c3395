//! Writer's ui-oracle planner: keyboard-first plans through LibreOffice's own UI — the Find &
//! Replace dialog (Ctrl+H; Find All selects the phrase), formatting shortcuts (Ctrl+B/I/U,
//! Ctrl+E/R/J, Ctrl+1..3), the Apply Style box (Ctrl+F11), Ctrl+Enter page breaks, Ctrl+S — each
//! dialog step waiting for the focused window's title. Templates or properties without a verified
//! keyboard plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use crate::apps::office::{list_slot, node, template_of, text_slot, LoPlan};
use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, UiPlanner};

/// Applies the character properties of one `char_format` target to the selection: Ctrl+B/I/U
/// and Format > Text > Strikethrough. Colours, highlighting, fonts and sizes are refused: the
/// Formatting toolbar's buttons and boxes report positions through AT-SPI that are off by the
/// toolbar's height in LibreOffice 7.4's GTK3 plugin, so a click there lands on another button.
fn char_steps(plan: &mut LoPlan, target: &Value) -> Result<(), String> {
    let props = target
        .as_object()
        .ok_or("template char_format: a target is not an object")?;
    for (prop, value) in props {
        match (prop.as_str(), value) {
            ("text", _) | (_, Value::Bool(false)) | (_, Value::Null) => {}
            ("bold", _) => {
                plan.keys("ctrl+b");
            }
            ("italic", _) => {
                plan.keys("ctrl+i");
            }
            ("underline", _) => {
                plan.keys("ctrl+u");
            }
            ("strike", _) => {
                plan.menu("Format", &["Text", "Strikethrough"]);
            }
            (other, _) => {
                return Err(format!(
                    "template char_format: `{other}` = {value} has no keyboard plan"
                ))
            }
        }
    }
    Ok(())
}

/// The sidebar field (Properties deck, Paragraph panel) and the text typed for a paragraph
/// property that has no shortcut.
fn para_field(prop: &str, value: &Value) -> Option<(&'static str, String)> {
    let v = value.as_f64()?;
    let field = match prop {
        "left_indent_cm" => return Some(("spin button:Before Text Indent", format!("{v} cm"))),
        "first_line_indent_cm" => return Some(("spin button:First Line Indent", format!("{v} cm"))),
        "space_after" => "spin button:Below Paragraph Spacing",
        "space_before" => "spin button:Above Paragraph Spacing",
        _ => return None,
    };
    Some((field, format!("{v} pt")))
}

/// Applies one `para_format` target to the paragraph holding the selection: Ctrl+E/R/J/L and
/// the sidebar's indent and spacing fields (line spacing is refused: Writer's Ctrl+1..5 are the
/// heading styles, not line spacings).
fn para_steps(plan: &mut LoPlan, target: &Value) -> Result<(), String> {
    for (prop, value) in target.as_object().into_iter().flatten() {
        let chord = match (prop.as_str(), value.as_str(), value.as_f64()) {
            ("text", _, _) => continue,
            ("alignment", Some("center"), _) => "ctrl+e",
            ("alignment", Some("right"), _) => "ctrl+r",
            ("alignment", Some("justify"), _) => "ctrl+j",
            ("alignment", Some("left"), _) => "ctrl+l",
            (other, _, _) => {
                let (field, text) = para_field(other, value).ok_or_else(|| {
                    format!("template para_format: `{other}` = {value} has no keyboard plan")
                })?;
                // The Properties deck opens from the sidebar's tab bar (once: a second click
                // would close it again).
                plan.steps.push(PlanStep::UnlessPresent {
                    target: node(field),
                    steps: vec![PlanStep::Click {
                        target: node("tool bar:Properties"),
                    }],
                });
                plan.fill(field, &text);
                continue;
            }
        };
        plan.keys(chord);
    }
    Ok(())
}

/// The Writer plan of one template.
pub fn writer_plan(template: &str, s: &Value) -> Result<Vec<PlanStep>, String> {
    let mut plan = LoPlan::new(text_slot(s, "doc", template)?, "Writer", 6);
    match template {
        "find_replace" => {
            let (old, new) = (text_slot(s, "old", template)?, text_slot(s, "new", template)?);
            plan.find(old, Some(new));
        }
        "char_format" | "para_format" | "apply_style" => {
            for t in list_slot(s, "targets", template)? {
                plan.find(text_slot(t, "text", template)?, None);
                match template {
                    "char_format" => char_steps(&mut plan, t)?,
                    "para_format" => para_steps(&mut plan, t)?,
                    _ => match text_slot(t, "style", template)? {
                        h @ ("Heading 1" | "Heading 2" | "Heading 3") => {
                            plan.keys(&format!("ctrl+{}", &h[8..]));
                        }
                        style => {
                            plan.keys("ctrl+F11 ctrl+a").text(style).keys("Return");
                        }
                    },
                }
            }
        }
        "make_list" => {
            let targets = list_slot(s, "targets", template)?;
            let first = targets
                .first()
                .and_then(Value::as_str)
                .ok_or("template make_list: no targets")?;
            // From the first paragraph's start, Ctrl+Shift+Down selects to each paragraph's end.
            plan.find(first, None)
                .keys("Home")
                .keys(&vec!["ctrl+shift+Down"; targets.len()].join(" "));
            // F12 numbers the selected paragraphs, Shift+F12 bullets them.
            plan.keys(match text_slot(s, "kind", template)? {
                "number" => "F12",
                _ => "shift+F12",
            });
        }
        "table_fill" => {
            let table = list_slot(s, "table", template)?;
            for c in list_slot(s, "cells", template)? {
                let (row, col) = (num(c, "row")?, num(c, "col")?);
                let label = table
                    .get(row)
                    .and_then(|r| r.get(0))
                    .and_then(Value::as_str)
                    .ok_or("template table_fill: a cell's row has no label")?;
                // Find All selects the row's label; Home drops that selection (Tab would
                // extend it across the row), then Tab moves cell by cell along the row.
                plan.find(label, None)
                    .keys("Home")
                    .keys(&vec!["Tab"; col].join(" "))
                    .text(text_slot(c, "value", template)?);
            }
        }
        "insert_table" => {
            let rows = list_slot(s, "rows", template)?;
            let cols = rows.first().and_then(Value::as_array).map_or(0, Vec::len);
            // A new paragraph at the end, Table > Insert Table (Ctrl+F12): Name, Columns, Rows.
            plan.keys("ctrl+End Return ctrl+F12")
                .wait_window("Insert Table")
                .keys("Tab ctrl+a")
                .text(&cols.to_string())
                .keys("Tab ctrl+a")
                .text(&rows.len().to_string())
                .click("push button:Insert");
            let title = format!("{} - LibreOffice Writer", file_name(text_slot(s, "doc", template)?));
            plan.wait_window(&title);
            let cells: Vec<&str> = rows
                .iter()
                .flat_map(|r| r.as_array().into_iter().flatten())
                .filter_map(Value::as_str)
                .collect();
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    plan.keys("Tab");
                }
                if !cell.is_empty() {
                    plan.text(cell);
                }
            }
        }
        "header_footer" => {
            if let Some(h) = s.get("header_text").and_then(Value::as_str) {
                plan.menu("Insert", &["Header and Footer", "Header", "Default Page Style"])
                    .text(h);
            }
            let footer = s.get("footer_text").and_then(Value::as_str);
            let page = s.get("page_number").and_then(Value::as_bool) == Some(true);
            if footer.is_some() || page {
                plan.menu("Insert", &["Header and Footer", "Footer", "Default Page Style"]);
            }
            if let Some(f) = footer {
                plan.text(f);
            }
            if page {
                plan.menu("Insert", &["Field", "Page Number"]);
            }
        }
        "page_break" => {
            plan.find(text_slot(s, "text", template)?, None)
                .keys("Home ctrl+Return");
        }
        "insert_paragraph" => {
            plan.find(text_slot(s, "anchor", template)?, None)
                .keys("End Return")
                .text(text_slot(s, "text", template)?);
        }
        "delete_paragraph" => {
            for t in list_slot(s, "texts", template)? {
                let t = t.as_str().ok_or("template delete_paragraph: texts[] not strings")?;
                plan.find(t, None).keys("Home shift+End Delete Delete");
            }
        }
        other => return Err(format!("template {other} has no Writer keyboard plan yet")),
    }
    Ok(plan.save())
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn num(v: &Value, key: &str) -> Result<usize, String> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .ok_or_else(|| format!("template table_fill: `{key}` is not a number"))
}

/// Plans Writer tasks through LibreOffice's UI.
pub struct WriterPlanner;

impl UiPlanner for WriterPlanner {
    fn apps(&self) -> &[&'static str] {
        &["libreoffice_writer"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, String> {
        let (template, slots) = template_of(brief)?;
        writer_plan(template, slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::office::{key, typed, wait, OPEN_TIMEOUT_MS, SAVE_TIMEOUT_MS};
    use crate::engine::rollout::ui_plan::Target;

    fn shipped(text: &str) -> Vec<Value> {
        let doc: Value = serde_json::from_str(text).unwrap();
        doc["tasks"].as_array().unwrap().clone()
    }

    /// Every shipped Writer task either gets a plan that waits for its document window, saves
    /// with Ctrl+S, and types each phrase it searches for, or is refused naming the template
    /// or property that has no keyboard plan.
    #[test]
    fn writer_tasks_plan_or_are_refused_by_name() {
        let mut planned = 0;
        for t in shipped(include_str!("tasks.json")) {
            let tpl = t["template"].as_str().unwrap();
            match writer_plan(tpl, &t["slots"]) {
                Ok(plan) => {
                    planned += 1;
                    let doc = t["slots"]["doc"].as_str().unwrap();
                    let title = format!("{} - LibreOffice Writer", doc.rsplit('/').next().unwrap());
                    assert_eq!(plan[0], wait(&title, OPEN_TIMEOUT_MS), "{}", t["task_id"]);
                    assert_eq!(plan[plan.len() - 2], key("ctrl+s"), "{}", t["task_id"]);
                    // The plan ends only once the save has reached the disk.
                    assert_eq!(
                        plan[plan.len() - 1],
                        PlanStep::WaitFor {
                            target: Target::Role { role: "saved".into(), name: doc.into() },
                            timeout_ms: SAVE_TIMEOUT_MS
                        },
                        "{}",
                        t["task_id"]
                    );
                }
                Err(e) => assert!(
                    e.contains(tpl) && e.contains("no") && e.contains("plan"),
                    "{}: {e}",
                    t["task_id"]
                ),
            }
        }
        assert!(planned >= 32, "only {planned} Writer tasks planned");
    }

    /// Find & Replace: Match case is ticked on the first opening only (the dialog keeps it), and
    /// the Replace All button is 6 tabs from the Replace field in Writer.
    #[test]
    fn find_replace_ticks_match_case_once_and_reaches_replace_all() {
        let mut plan = LoPlan::new("Documents/a.docx", "Writer", 6);
        plan.find("Falcon", Some("Osprey")).find("Risks", None);
        let spaces = plan.steps.iter().filter(|s| **s == key("space")).count();
        assert_eq!(spaces, 1);
        assert!(plan.steps.contains(&key("Tab Tab Tab Tab Tab Tab Return")));
        assert!(plan.steps.contains(&typed("Osprey")));
    }

    /// A table cell is reached from its row's label with the selection dropped first (Tab with
    /// the Find All selection still on would extend it across the row and typing would wipe it).
    #[test]
    fn table_fill_drops_the_found_selection_before_tabbing_along_the_row() {
        let slots = serde_json::json!({"doc": "Documents/s.docx",
            "table": [["Region", "Q1", "Q2"], ["North", "1", ""]],
            "cells": [{"row": 1, "col": 2, "value": "7"}]});
        let plan = writer_plan("table_fill", &slots).unwrap();
        let at = plan.iter().position(|s| *s == typed("7")).unwrap();
        assert_eq!(plan[at - 1], key("Tab Tab"), "{plan:?}");
        assert_eq!(plan[at - 2], key("Home"), "{plan:?}");
    }

    /// Properties without a verified keyboard plan are refused, not silently skipped.
    #[test]
    fn an_unplannable_property_is_refused_by_name() {
        let slots = serde_json::json!({"doc": "Documents/a.docx", "targets": [{"text": "x", "color": "C9211E"}]});
        let err = writer_plan("char_format", &slots).unwrap_err();
        assert!(err.contains("`color`"), "{err}");
        let err = writer_plan("page_setup", &slots).unwrap_err();
        assert!(err.contains("page_setup"), "{err}");
    }
}
