//! Writer's ui-oracle planner: keyboard-first plans through LibreOffice's own UI — the Find &
//! Replace dialog (Ctrl+H; Find All selects the phrase), formatting shortcuts (Ctrl+B/I/U,
//! Ctrl+E/R/J, Ctrl+1..3), the Apply Style box (Ctrl+F11), Ctrl+Enter page breaks, Ctrl+S — each
//! dialog step waiting for the focused window's title. Templates or properties without a verified
//! keyboard plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use super::planner_dialogs as dialogs;
use super::planner_find::{self as find, Then};
use crate::apps::office::{list_slot, template_of, text_slot, LoPlan};
use crate::agents::TaskBrief;
use crate::rollout::ui_plan::PlanRefusal;
use crate::rollout::ui_plan::{PlanStep, Target, UiPlanner};

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
/// once it has the focus and checked to show the style's name before Return. Tried again until
/// the Formatting toolbar's Paragraph Style box shows the style (keys pressed right after the
/// Find & Replace dialog closed were lost under load).
fn style_steps(plan: &mut LoPlan, style: &str) {
    const STYLES_MENU: [&str; 5] = ["Text Body", "Title", "Subtitle", "Quotations", "Preformatted Text"];
    let at = plan.steps.len();
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
    // The style's steps, as one try.
    let steps = plan.steps.split_off(at);
    plan.steps.push(PlanStep::Retry {
        until: style_shown(style),
        tries: 3,
        timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        steps,
    });
}

/// The Formatting toolbar's Paragraph Style box once it shows `style` (the caret's paragraph's).
fn style_shown(style: &str) -> Target {
    Target::Role {
        role: "field_within".into(),
        name: format!("panel:Paragraph Style>text:{style}"),
    }
}

/// The Writer plan of one template.
pub fn writer_plan(template: &str, s: &Value) -> Result<Vec<PlanStep>, String> {
    let doc = text_slot(s, "doc", template)?;
    let mut plan = LoPlan::new(doc, "Writer", 6);
    let title = format!("{} - LibreOffice Writer", file_name(doc));
    let find_all = |plan: &mut LoPlan, phrase: &str| {
        find::find(plan, &title, phrase, Then::FindAll);
    };
    match template {
        "find_replace" => {
            let (old, new) = (text_slot(s, "old", template)?, text_slot(s, "new", template)?);
            find::find(&mut plan, &title, old, Then::ReplaceAll(new));
        }
        "char_format" | "para_format" | "apply_style" => {
            for t in list_slot(s, "targets", template)? {
                find_all(&mut plan, text_slot(t, "text", template)?);
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
            find_all(&mut plan, first);
            plan.keys("Home")
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
                find_all(&mut plan, label);
                plan.keys("Home")
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
            find_all(&mut plan, text_slot(s, "text", template)?);
            plan.keys("Home ctrl+Return");
        }
        "insert_paragraph" => {
            // In the Find & Replace dialog alone (a regular expression to the anchor
            // paragraph's end, replaced by itself, a paragraph break and the text), then the
            // new paragraph must show in the document.
            let (anchor, text) = (text_slot(s, "anchor", template)?, text_slot(s, "text", template)?);
            find::insert_after(&mut plan, &title, anchor, text);
            plan.expect(&format!("paragraph:{text}"));
        }
        "delete_paragraph" => {
            for t in list_slot(s, "texts", template)? {
                let t = t.as_str().ok_or("template delete_paragraph: texts[] not strings")?;
                find_all(&mut plan, t);
                plan.keys("Home shift+End Delete Delete");
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

    fn retry_until(plan: &[PlanStep], want: &Target) -> bool {
        plan.iter()
            .any(|s| matches!(s, PlanStep::Retry { until, .. } if until == want))
    }

    /// Fails on the old plan (the caret moved with Home, Ctrl+Shift+Down, End and Return in the
    /// document: keys lost after the dialog closed made the anchor a paragraph break): the new
    /// paragraph is made in the Find & Replace dialog alone, every field checked, and then
    /// looked for in the document; no key but the dialog's and the save's is pressed.
    #[test]
    fn a_new_paragraph_is_made_in_the_dialog_with_every_field_checked() {
        let slots = serde_json::json!({"doc": "Documents/m.docx", "anchor": "Ben Cho (2.0)",
            "text": "R&D: New.", "paragraphs": ["Minutes", "Ben Cho (2.0) will call."]});
        let plan = writer_plan("insert_paragraph", &slots).unwrap();
        assert!(retry_until(&plan, &field("labelled_shows", r"Find:=Ben Cho \(2\.0\).*$")), "{plan:?}");
        assert!(retry_until(&plan, &field("labelled_shows", r"Replace:=&\nR\&D: New.")), "{plan:?}");
        assert!(retry_until(&plan, &node("check box:Regular expressions[checked]")), "{plan:?}");
        assert!(retry_until(&plan, &node("check box:Match case[checked]")), "{plan:?}");
        let replace = plan.iter().position(|s| *s == PlanStep::Click { target: node("push button:Replace All") });
        let found = plan.iter().position(|s| *s == PlanStep::WaitFor {
            target: node("paragraph:R&D: New."),
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        });
        assert!(replace.is_some() && found > replace, "{plan:?}");
        let keys: Vec<&PlanStep> = plan.iter().filter(|s| matches!(s, PlanStep::Key { .. } | PlanStep::Type { .. })).collect();
        assert_eq!(keys, vec![&key("ctrl+s")], "{plan:?}");
    }

    /// Fails on the old plan (Ctrl+H pressed at most three times without waiting, the phrase
    /// typed wherever the keyboard was and the buttons reached by counting Tabs; the heading
    /// chord pressed once, unchecked): the dialog is asked for until it has the focus, the Find
    /// field is clicked by its caption and must show the phrase, Find All and Close are clicked
    /// by name, and the style is applied until the Paragraph Style box shows it.
    #[test]
    fn find_fields_and_styles_are_checked_in_the_tree() {
        let slots = serde_json::json!({"doc": "Documents/r.docx",
            "targets": [{"text": "Risks", "style": "Heading 1"}, {"text": "Plan", "style": "Title"}]});
        let plan = writer_plan("apply_style", &slots).unwrap();
        assert!(retry_until(&plan, &crate::apps::office::focused("Find and Replace")), "{plan:?}");
        assert!(retry_until(&plan, &field("labelled_shows", "Find:=Risks")), "{plan:?}");
        assert!(retry_until(&plan, &crate::apps::office::focused("r.docx - LibreOffice Writer")));
        assert!(plan.contains(&PlanStep::Click { target: node("push button:Find All") }));
        for style in ["Heading 1", "Title"] {
            let shown = field("field_within", &format!("panel:Paragraph Style>text:{style}"));
            assert!(retry_until(&plan, &shown), "{style}: {plan:?}");
        }
        assert!(!plan.iter().any(|s| matches!(s, PlanStep::Key { key } if key.contains("Tab"))), "{plan:?}");
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
