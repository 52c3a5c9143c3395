//! Impress's ui-oracle planner: keyboard-first plans through LibreOffice Impress (the Find &
//! Replace dialog, Ctrl+S), built with the shared [`LoPlan`]. Templates without a verified keyboard
//! plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use crate::apps::office::{list_slot, template_of, text_slot, LoPlan};
use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, UiPlanner};

/// Goes to slide `n` (1-based) of the deck in Normal (or Notes) view: Escape leaves any
/// selection, Home shows the first slide, Page Down each next one.
fn goto_slide(plan: &mut LoPlan, n: usize) {
    plan.keys("Escape Escape Home");
    if n > 1 {
        plan.keys(&vec!["Next"; n - 1].join(" "));
    }
}

/// Selects the current slide's first object (its title placeholder) and edits its text:
/// Tab, F2, select all, type `lines` (Return between them), leave the text edit.
fn retype_object(plan: &mut LoPlan, lines: &[&str]) {
    plan.keys("Tab F2 ctrl+a");
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            plan.keys("Return");
        }
        plan.text(line);
    }
    plan.keys("Escape");
}

/// The 1-based place of the slide titled `title` in the deck's `slides` slot.
fn slide_titled(s: &Value, title: &str, template: &str) -> Result<usize, String> {
    list_slot(s, "slides", template)?
        .iter()
        .position(|sl| sl.get("title").and_then(Value::as_str) == Some(title))
        .map(|i| i + 1)
        .ok_or_else(|| format!("template {template}: no slide titled {title:?} in `slides`"))
}

/// Moves the current slide from place `from` to place `to` (Slide > Move's shortcuts).
fn move_slide(plan: &mut LoPlan, from: usize, to: usize) {
    let (chord, n) = if to < from {
        ("shift+alt+Prior", from - to)
    } else {
        ("shift+alt+Next", to - from)
    };
    if n > 0 {
        plan.keys(&vec![chord; n].join(" "));
    }
}

fn num_slot(s: &Value, key: &str, template: &str) -> Result<usize, String> {
    s.get(key)
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .ok_or_else(|| format!("template {template}: slot `{key}` is not a number"))
}

/// Title formatting on the selected title object: Ctrl+B/I/U, the sidebar's Font Color button
/// (its default is Dark Red 2, C9211E) and font size field.
fn title_format(plan: &mut LoPlan, s: &Value, template: &str) -> Result<(), String> {
    for (prop, chord) in [("bold", "ctrl+b"), ("italic", "ctrl+i"), ("underline", "ctrl+u")] {
        if s.get(prop).and_then(Value::as_bool) == Some(true) {
            plan.keys(chord);
        }
    }
    if let Some(color) = s.get("color").and_then(Value::as_str) {
        if !color.eq_ignore_ascii_case("C9211E") {
            return Err(format!(
                "template {template}: colour {color} has no keyboard plan (only the Font Color button's C9211E)"
            ));
        }
        // The sidebar shows the Character panel once the title is selected.
        plan.steps.push(PlanStep::WaitFor {
            target: crate::apps::office::node("push button:Font Color"),
            timeout_ms: crate::apps::office::DIALOG_TIMEOUT_MS,
        });
        plan.click("push button:Font Color");
    }
    if let Some(size) = s.get("size").and_then(Value::as_f64) {
        plan.fill("text:* pt", &format!("{size} pt"));
    }
    Ok(())
}

/// The Impress plan of one template.
pub fn impress_plan(template: &str, s: &Value) -> Result<Vec<PlanStep>, String> {
    // Impress's Find & Replace has no Find All: 5 tabs from Replace to Replace All.
    let mut plan = LoPlan::new(text_slot(s, "deck", template)?, "Impress", 5);
    match template {
        "find_replace" => {
            let (old, new) = (text_slot(s, "old", template)?, text_slot(s, "new", template)?);
            plan.find(old, Some(new));
        }
        "edit_title" => {
            goto_slide(&mut plan, num_slot(s, "slide", template)?);
            retype_object(&mut plan, &[text_slot(s, "title", template)?]);
        }
        "title_format" => {
            goto_slide(&mut plan, num_slot(s, "slide", template)?);
            plan.keys("Tab");
            title_format(&mut plan, s, template)?;
        }
        "delete_slide" => {
            goto_slide(&mut plan, slide_titled(s, text_slot(s, "title", template)?, template)?);
            plan.menu("Slide", &["Delete Slide"]);
        }
        "move_slide" => {
            let from = slide_titled(s, text_slot(s, "title", template)?, template)?;
            goto_slide(&mut plan, from);
            move_slide(&mut plan, from, num_slot(s, "position", template)?);
        }
        "add_slide" => add_slide(&mut plan, s, template)?,
        "speaker_notes" => {
            plan.menu("View", &["Notes"]);
            for note in list_slot(s, "notes", template)? {
                goto_slide(&mut plan, num_slot(note, "slide", template)?);
                // The notes page: Tab selects the slide's picture, Tab again the notes box.
                plan.keys("Tab Tab F2 ctrl+a")
                    .text(text_slot(note, "text", template)?)
                    .keys("Escape");
            }
            plan.keys("Escape").menu("View", &["Normal"]);
        }
        "export_pdf" => {
            let pdf = text_slot(s, "pdf", template)?; // not the app: a slot name
            plan.menu("File", &["Export As", "Export as PDF..."])
                .wait_window("PDF Options")
                .click("push button:Export")
                .wait_window("Export")
                .keys("ctrl+a")
                .text(&format!("/home/user/{pdf}"))
                .keys("Return");
            return Ok(plan.written(pdf));
        }
        other => return Err(format!("template {other} has no Impress keyboard plan yet")),
    }
    Ok(plan.save())
}

/// A new Title-and-Content slide: duplicate a slide that has bullets (the deck's own layout,
/// whose body is a text placeholder), retype its title and body, move it into place.
fn add_slide(plan: &mut LoPlan, s: &Value, template: &str) -> Result<(), String> {
    let source = list_slot(s, "slides", template)?
        .iter()
        .position(|sl| sl.get("bullets").and_then(Value::as_array).is_some_and(|b| !b.is_empty()))
        .map(|i| i + 1)
        .ok_or_else(|| format!("template {template}: no slide with bullets to duplicate"))?;
    let bullets: Vec<&str> = list_slot(s, "bullets", template)?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    goto_slide(plan, source);
    plan.menu("Slide", &["Duplicate Slide"]);
    retype_object(plan, &[text_slot(s, "title", template)?]);
    retype_object(plan, &bullets);
    plan.keys("Escape");
    move_slide(plan, source + 1, num_slot(s, "position", template)?);
    Ok(())
}

/// Plans Impress tasks through LibreOffice's UI.
pub struct ImpressPlanner;

impl UiPlanner for ImpressPlanner {
    fn apps(&self) -> &[&'static str] {
        &["libreoffice_impress"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, String> {
        let (template, slots) = template_of(brief)?;
        impress_plan(template, slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rollout::ui_plan::Target;

    /// Every shipped Impress task either gets a plan that waits for its deck's window and ends
    /// once a file has been written, or is refused naming its template; at least 25 of 34 plan.
    #[test]
    fn impress_tasks_plan_or_are_refused_by_name() {
        let doc: Value = serde_json::from_str(include_str!("tasks.json")).unwrap();
        let mut planned = 0;
        for t in doc["tasks"].as_array().unwrap() {
            let tpl = t["template"].as_str().unwrap();
            match impress_plan(tpl, &t["slots"]) {
                Ok(plan) => {
                    planned += 1;
                    let last = plan.last().unwrap();
                    assert!(
                        matches!(last, PlanStep::WaitFor { target: Target::Role { role, .. }, .. } if role == "saved")
                            || matches!(&plan[plan.len() - 2], PlanStep::WaitFor { target: Target::Role { role, .. }, .. } if role == "saved"),
                        "{}: {last:?}",
                        t["task_id"]
                    );
                }
                Err(e) => assert!(e.contains(tpl) && e.contains("plan"), "{}: {e}", t["task_id"]),
            }
        }
        assert!(planned >= 25, "only {planned} Impress tasks planned");
    }

    /// Moving a slide uses Slide > Move's shortcuts the right number of times, and a new slide
    /// is a duplicate of a bulleted slide, retitled, refilled and moved into place.
    #[test]
    fn slides_move_by_shortcuts_and_new_slides_duplicate_a_bulleted_one() {
        let deck = serde_json::json!([{"title": "A", "subtitle": "x"}, {"title": "B", "bullets": ["b"]},
            {"title": "C", "bullets": ["c"]}, {"title": "D"}]);
        let s = serde_json::json!({"deck": "Documents/d.pptx", "slides": deck, "title": "D", "position": 2});
        let plan = impress_plan("move_slide", &s).unwrap();
        assert!(plan.contains(&PlanStep::Key { key: "shift+alt+Prior shift+alt+Prior".into() }), "{plan:?}");
        let s = serde_json::json!({"deck": "Documents/d.pptx", "slides": deck, "title": "N",
            "bullets": ["one", "two"], "position": 4});
        let plan = impress_plan("add_slide", &s).unwrap();
        // Slide 2 (the first with bullets) is duplicated into place 3, then moved one down.
        let home = plan
            .iter()
            .position(|s| *s == PlanStep::Key { key: "Escape Escape Home".into() })
            .unwrap();
        assert_eq!(plan[home + 1], PlanStep::Key { key: "Next".into() }, "{plan:?}");
        assert!(plan.contains(&PlanStep::Key { key: "shift+alt+Next".into() }), "{plan:?}");
        assert!(plan.contains(&PlanStep::Type { text: "two".into() }));
    }

    /// Impress find & replace: waits for the deck's window, Replace All is 5 tabs away (no Find
    /// All button), then Ctrl+S; other templates are refused by name.
    #[test]
    fn impress_find_replace_plans_and_other_templates_are_refused() {
        let slots = serde_json::json!({"deck": "Documents/launch.pptx", "old": "a", "new": "b"});
        let plan = impress_plan("find_replace", &slots).unwrap();
        assert_eq!(
            plan[0],
            PlanStep::WaitFor {
                target: Target::Role {
                    role: "focused_window".into(),
                    name: "launch.pptx - LibreOffice Impress".into()
                },
                timeout_ms: 60_000
            }
        );
        assert!(plan.contains(&PlanStep::Key {
            key: "Tab Tab Tab Tab Tab Return".into()
        }));
        let err = impress_plan("add_shape", &slots).unwrap_err();
        assert!(err.contains("add_shape"), "{err}");
    }
}
