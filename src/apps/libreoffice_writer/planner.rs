//! Writer's ui-oracle planner: keyboard-first plans through LibreOffice's own UI — the Find &
//! Replace dialog (Ctrl+H; Find All selects the phrase), formatting shortcuts (Ctrl+B/I/U,
//! Ctrl+E/R/J, Ctrl+1..3), the Apply Style box (Ctrl+F11), Ctrl+Enter page breaks, Ctrl+S — each
//! dialog step waiting for the focused window's title. Templates or properties without a verified
//! keyboard plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use super::planner_dialogs as dialogs;
use crate::apps::office::{list_slot, template_of, text_slot, LoPlan};
use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::engine::rollout::ui_plan::PlanRefusal;

/// Applies the character properties of one `char_format` target to the selection: Ctrl+B/I/U,
/// Format > Text > Strikethrough, and Format > Character for fonts, sizes, colours and
/// highlighting (the Formatting toolbar's boxes report positions through AT-SPI that are off by
/// the toolbar's height in LibreOffice 7.4's GTK3 plugin, so they are never clicked).
fn char_steps(plan: &mut LoPlan, target: &Value) -> Result<(), String> {
    let props = target
        .as_object()
        .ok_or("template char_format: a target is not an object")?;
    let mut dialog = Vec::new();
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
            (p, _) if dialogs::is_char_dialog_prop(p) => dialog.push((p, value)),
            (other, _) => {
                return Err(format!(
                    "template char_format: `{other}` = {value} has no keyboard plan"
                ))
            }
        }
    }
    if !dialog.is_empty() {
        dialogs::char_dialog(plan, &dialog)?;
    }
    Ok(())
}

/// Applies one `para_format` target to the paragraph holding the selection: Ctrl+E/R/J/L, and
/// Format > Paragraph for indents, spacing and line spacing (Writer's Ctrl+1..5 are the heading
/// styles, not line spacings; the sidebar's fields took typed text late under load).
fn para_steps(plan: &mut LoPlan, target: &Value) -> Result<(), String> {
    let mut dialog = Vec::new();
    for (prop, value) in target.as_object().into_iter().flatten() {
        let chord = match (prop.as_str(), value.as_str()) {
            ("text", _) => continue,
            ("alignment", Some("center")) => "ctrl+e",
            ("alignment", Some("right")) => "ctrl+r",
            ("alignment", Some("justify")) => "ctrl+j",
            ("alignment", Some("left")) => "ctrl+l",
            ("alignment", _) => {
                return Err(format!(
                    "template para_format: `alignment` = {value} has no keyboard plan"
                ))
            }
            (other, _) => {
                dialog.push((other, value));
                continue;
            }
        };
        plan.keys(chord);
    }
    if !dialog.is_empty() {
        dialogs::para_dialog(plan, &dialog)?;
    }
    Ok(())
}

/// Applies a paragraph style to the paragraph holding the selection: Ctrl+1..3 for headings,
/// the Styles menu for the styles it lists, else the Apply Style box (Ctrl+F11), typed into
/// once it has the focus and checked to show the style's name before Return.
fn style_steps(plan: &mut LoPlan, style: &str) {
    const STYLES_MENU: [&str; 5] = ["Text Body", "Title", "Subtitle", "Quotations", "Preformatted Text"];
    match style {
        h @ ("Heading 1" | "Heading 2" | "Heading 3") => {
            plan.keys(&format!("ctrl+{}", &h[8..]));
        }
        s if STYLES_MENU.contains(&s) => {
            plan.menu("Styles", &[s]);
        }
        s => {
            plan.apply_style_box(s);
        }
    }
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
                    _ => style_steps(&mut plan, text_slot(t, "style", template)?),
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
        "page_setup" => dialogs::page_setup(&mut plan, s)?,
        "page_break" => {
            plan.find(text_slot(s, "text", template)?, None)
                .keys("Home ctrl+Return");
        }
        "insert_paragraph" => {
            // End alone goes to the end of the found text's screen line, inside a paragraph
            // that wraps; Ctrl+Shift+Down selects to the paragraph's end, End then drops the
            // selection there.
            let (anchor, text) = (text_slot(s, "anchor", template)?, text_slot(s, "text", template)?);
            plan.find(anchor, None);
            // The caret is in the anchor paragraph (the document has the keyboard again)...
            if let Some(para) = list_slot(s, "paragraphs", template)?
                .iter()
                .filter_map(Value::as_str)
                .find(|p| p.contains(anchor))
            {
                plan.keys("Home").wait_focused_text(para);
            }
            // ...at its end, then in a new empty paragraph before the text is typed, and the
            // text must read as a paragraph of its own.
            plan.keys("ctrl+shift+Down End Return")
                .wait_focused_text("")
                .text(text)
                .expect(&format!("paragraph:{text}"));
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

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let (template, slots) = template_of(brief)?;
        Ok(writer_plan(template, slots)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::office::{key, node, typed, wait, OPEN_TIMEOUT_MS, SAVE_TIMEOUT_MS};
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
        assert_eq!(planned, 41, "only {planned} Writer tasks planned");
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

    /// Fails on the old plan (End: the end of the screen line, inside a wrapped paragraph; keys
    /// typed while the document did not have the keyboard yet): the new paragraph starts at the
    /// anchor paragraph's end, typed once the caret is in an empty paragraph, and is checked.
    #[test]
    fn a_new_paragraph_goes_after_the_whole_anchor_paragraph() {
        let slots = serde_json::json!({"doc": "Documents/m.docx", "anchor": "Ben Cho",
            "text": "New.", "paragraphs": ["Minutes", "Ben Cho will call."]});
        let plan = writer_plan("insert_paragraph", &slots).unwrap();
        let at = plan.iter().position(|s| *s == typed("New.")).unwrap();
        let shows = |text: &str| PlanStep::WaitFor {
            target: Target::Role { role: "focused_shows".into(), name: text.into() },
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        };
        assert_eq!(plan[at - 1], shows(""), "{plan:?}");
        assert_eq!(plan[at - 2], key("ctrl+shift+Down End Return"), "{plan:?}");
        assert_eq!(plan[at - 3], shows("Ben Cho will call."), "{plan:?}");
        assert_eq!(plan[at + 1], PlanStep::WaitFor {
            target: node("paragraph:New."),
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        });
    }

    /// Properties without a verified keyboard plan are refused, not silently skipped.
    #[test]
    fn an_unplannable_property_is_refused_by_name() {
        let slots = serde_json::json!({"doc": "Documents/a.docx", "targets": [{"text": "x", "outline": true}]});
        let err = writer_plan("char_format", &slots).unwrap_err();
        assert!(err.contains("`outline`"), "{err}");
        let slots = serde_json::json!({"doc": "Documents/a.docx", "orientation": "diagonal"});
        let err = writer_plan("page_setup", &slots).unwrap_err();
        assert!(err.contains("page_setup"), "{err}");
    }

    fn field(role: &str, name: &str) -> Target {
        Target::Role { role: role.into(), name: name.into() }
    }

    /// Fails on the old planner (sidebar indent field typed into without a check; colours,
    /// line spacing and page setup refused): every typed dialog value is waited for in its
    /// field before OK, and the dialogs are reached by their menus.
    #[test]
    fn dialog_fields_are_checked_against_what_they_show_before_ok() {
        let slots = serde_json::json!({"doc": "Documents/p.docx",
            "targets": [{"text": "Core hours", "left_indent_cm": 1.5, "line_spacing": 2.0}]});
        let plan = writer_plan("para_format", &slots).unwrap();
        let check = PlanStep::WaitFor {
            target: field("labelled_shows", "Before text:=1.5 cm"),
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        };
        let at = plan.iter().position(|s| *s == check).expect("the indent is checked");
        let ok = plan.iter().position(|s| *s == PlanStep::Click { target: node("push button:OK") });
        assert!(ok.is_some_and(|ok| ok > at), "{plan:?}");
        assert!(plan.contains(&PlanStep::Click { target: node("menu item|check menu item|radio menu item:Paragraph") }));
        assert!(plan.contains(&PlanStep::Click { target: node("table cell|list item|menu item:Double") }));

        let slots = serde_json::json!({"doc": "Documents/n.docx",
            "targets": [{"text": "Volunteers", "color": "C9211E"}]});
        let plan = writer_plan("char_format", &slots).unwrap();
        assert!(plan.contains(&PlanStep::WaitFor {
            target: node("toggle button:#C9211E"),
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        }));

        let slots = serde_json::json!({"doc": "Documents/m.docx", "paper": "A4",
            "margins_cm": {"left": 2.5}});
        let plan = writer_plan("page_setup", &slots).unwrap();
        // The menu bar is waited for first (a fresh window shows it in the tree late).
        let menu_wait = PlanStep::WaitFor { target: node("menu:Format"), timeout_ms: 30_000 };
        assert_eq!(plan[1], menu_wait, "{plan:?}");
        assert!(plan.contains(&PlanStep::Click { target: field("labelled_button", "Format:") }));
        assert!(plan.iter().any(|s| *s == PlanStep::WaitFor {
            target: field("labelled_shows", "Left:=2.5 cm"),
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        }));
    }
}
