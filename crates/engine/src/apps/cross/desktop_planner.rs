//! The plans of the desktop cross-app templates: two applications on one desktop screen
//! (issue #31). Each plan looks at the source application's window (the sheet's cells through
//! the Name Box; the PDF, the bookmark manager and the outline are on screen as the setup
//! opened them), switches to the destination's window with Alt+Tab — waited on by its title —
//! and does the work there with the destination pack's own keyboard-first steps (Writer's and
//! Impress's Find & Replace, Calc's Name Box), then saves and waits for the file on disk.

use serde_json::Value;

use crate::apps::libreoffice_calc::planner::calc_plan;
use crate::apps::office::{focused, key, list_slot, text_slot, wait, LoPlan, OPEN_TIMEOUT_MS};
use crate::rollout::ui_plan::{PlanStep, Target};

/// The desktop cross-app templates this module plans.
pub const TEMPLATES: &[&str] = &[
    "sheet_to_report",
    "pdf_to_report",
    "bookmarks_to_sheet",
    "outline_to_slides",
];

/// How long a switch waits for the window to have the focus after Alt+Tab.
const SWITCH_MS: u64 = 10_000;

/// Brings the window titled `title` to the front: nothing when it has the focus already, else
/// Alt+Tab (the most recently used other window: each of these screens holds two) and a wait
/// until it has the focus; a second Alt+Tab when the first one was lost.
pub fn switch_window(title: &str) -> Vec<PlanStep> {
    let press = |timeout_ms| PlanStep::UnlessPresent {
        target: focused(title),
        steps: vec![
            key("alt+Tab"),
            PlanStep::WaitFor {
                target: focused(title),
                timeout_ms,
            },
        ],
    };
    vec![
        // The screen's gate has passed: the window exists, it may just be behind.
        PlanStep::WaitFor {
            target: Target::Role {
                role: "window".into(),
                name: title.into(),
            },
            timeout_ms: OPEN_TIMEOUT_MS,
        },
        press(SWITCH_MS),
        wait(title, SWITCH_MS),
    ]
}

fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The document window's title of LibreOffice's `module` (`Writer`) showing `path`.
fn lo_title(path: &str, module: &str) -> String {
    format!("{} - LibreOffice {module}", base(path))
}

/// Put Calc's cursor on `cell` through the Name Box (how a person reads a figure there).
fn look_at_cell(cell: &str) -> Vec<PlanStep> {
    let role = |role: &str, name: &str| Target::Role {
        role: role.into(),
        name: name.into(),
    };
    vec![
        // Calc's tree may lag its window's focus on a loaded machine: the Name Box first.
        PlanStep::WaitFor {
            target: role("name_box", ""),
            timeout_ms: 30_000,
        },
        PlanStep::Fill {
            target: role("name_box", ""),
            text: cell.into(),
        },
        key("Return"),
        PlanStep::WaitFor {
            target: role("cell", cell),
            timeout_ms: 15_000,
        },
    ]
}

/// Writer's Find & Replace for each `{placeholder, value}` of `fills`, then Ctrl+S.
fn fill_placeholders(doc: &str, fills: &[Value], template: &str) -> Result<Vec<PlanStep>, String> {
    let mut plan = LoPlan::new(doc, "Writer", 6);
    for f in fills {
        plan.find(
            text_slot(f, "placeholder", template)?,
            Some(text_slot(f, "value", template)?),
        );
    }
    Ok(plan.save())
}

/// The plan of a desktop cross-app task of `template`, or `None` when the template is not one.
pub fn plan(template: &str, s: &Value) -> Option<Result<Vec<PlanStep>, String>> {
    let t = template;
    let built = match t {
        "sheet_to_report" => (|| {
            let book = text_slot(s, "sheet_file", t)?;
            let doc = text_slot(s, "doc", t)?;
            let fills = list_slot(s, "fills", t)?;
            let mut p = switch_window(&lo_title(book, "Calc"));
            for f in fills {
                p.extend(look_at_cell(text_slot(f, "cell", t)?));
            }
            p.extend(switch_window(&lo_title(doc, "Writer")));
            p.extend(fill_placeholders(doc, fills, t)?);
            Ok(p)
        })(),
        "pdf_to_report" => (|| {
            let doc = text_slot(s, "doc", t)?;
            let mut p = switch_window(base(text_slot(s, "pdf", t)?));
            p.extend(switch_window(&lo_title(doc, "Writer")));
            p.extend(fill_placeholders(doc, list_slot(s, "fills", t)?, t)?);
            Ok(p)
        })(),
        "bookmarks_to_sheet" => (|| {
            // Chromium's bookmark manager is on screen beside Calc; its window title varies with
            // the page, so the plan waits for Calc's window by title and works there.
            let book = text_slot(s, "file", t)?;
            let mut p = switch_window(&lo_title(book, "Calc"));
            p.extend(calc_plan("fill_cells", s)?);
            Ok(p)
        })(),
        "outline_to_slides" => (|| {
            let deck = text_slot(s, "deck", t)?;
            let titles = list_slot(s, "titles", t)?;
            let slides = list_slot(s, "slides", t)?;
            let mut p = switch_window(&lo_title(deck, "Impress"));
            // Impress's Find & Replace has no Find All: 5 tabs from Replace to Replace All.
            let mut plan = LoPlan::new(deck, "Impress", 5);
            for (slide, title) in slides.iter().zip(titles) {
                let new = title
                    .as_str()
                    .ok_or_else(|| format!("template {t}: a title is not text"))?;
                plan.find(text_slot(slide, "title", t)?, Some(new));
            }
            p.extend(plan.save());
            Ok(p)
        })(),
        _ => return None,
    };
    Some(built)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Vec<Value> {
        let doc: Value =
            serde_json::from_str(include_str!("../../../../../assets/tasks/cross.json")).unwrap();
        doc["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| TEMPLATES.contains(&t["template"].as_str().unwrap()))
            .cloned()
            .collect()
    }

    fn focus_waits(plan: &[PlanStep]) -> Vec<String> {
        plan.iter()
            .filter_map(|s| match s {
                PlanStep::WaitFor {
                    target: Target::Role { role, name },
                    ..
                } if role == "focused_window" => Some(name.clone()),
                _ => None,
            })
            .collect()
    }

    /// Every shipped desktop cross-app task (>= 4 per pair) plans, switches to its destination
    /// window by title before working there, and ends waiting for the saved file.
    #[test]
    fn every_desktop_cross_task_switches_by_title_and_ends_with_the_save() {
        let tasks = shipped();
        for tpl in TEMPLATES {
            let n = tasks.iter().filter(|t| t["template"] == *tpl).count();
            assert!(n >= 4, "{tpl}: {n} tasks");
        }
        for task in &tasks {
            let id = task["task_id"].as_str().unwrap();
            let s = &task["slots"];
            let plan = plan(task["template"].as_str().unwrap(), s)
                .unwrap()
                .unwrap();
            let dest = match task["template"].as_str().unwrap() {
                "bookmarks_to_sheet" => lo_title(s["file"].as_str().unwrap(), "Calc"),
                "outline_to_slides" => lo_title(s["deck"].as_str().unwrap(), "Impress"),
                _ => lo_title(s["doc"].as_str().unwrap(), "Writer"),
            };
            assert!(focus_waits(&plan).contains(&dest), "{id}: {plan:?}");
            assert!(
                plan.iter()
                    .any(|p| matches!(p, PlanStep::UnlessPresent { steps, .. }
                    if matches!(&steps[0], PlanStep::Key { key } if key == "alt+Tab"))),
                "{id}: no Alt+Tab switch"
            );
            assert!(
                matches!(plan.last(), Some(PlanStep::WaitFor { target: Target::Role { role, .. }, .. }) if role == "saved"),
                "{id}: {:?}",
                plan.last()
            );
        }
        assert!(plan("csv_to_issues", &Value::Null).is_none());
        let err = plan("sheet_to_report", &serde_json::json!({}))
            .unwrap()
            .unwrap_err();
        assert!(
            err.contains("sheet_to_report") && err.contains("sheet_file"),
            "{err}"
        );
    }
}
