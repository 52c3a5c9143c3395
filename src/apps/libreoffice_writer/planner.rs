//! Writer's ui-oracle planner: keyboard-first plans through LibreOffice's own UI — the Find &
//! Replace dialog (Ctrl+H; Find All selects the phrase), formatting shortcuts (Ctrl+B/I/U,
//! Ctrl+E/R/J, Ctrl+1..3), the Apply Style box (Ctrl+F11), Ctrl+Enter page breaks, Ctrl+S — each
//! dialog step waiting for the focused window's title. Templates or properties without a verified
//! keyboard plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use crate::apps::office::{list_slot, template_of, text_slot, LoPlan};
use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, UiPlanner};

/// The keys applying the character properties of one `char_format` target.
fn char_keys(target: &Value) -> Result<String, String> {
    let mut keys = Vec::new();
    let props = target
        .as_object()
        .ok_or("template char_format: a target is not an object")?;
    for (prop, value) in props {
        match (prop.as_str(), value) {
            ("text", _) | (_, Value::Bool(false)) | (_, Value::Null) => {}
            ("bold", _) => keys.push("ctrl+b"),
            ("italic", _) => keys.push("ctrl+i"),
            ("underline", _) => keys.push("ctrl+u"),
            (other, _) => {
                return Err(format!(
                    "template char_format: `{other}` has no keyboard plan (only bold, italic, underline)"
                ))
            }
        }
    }
    Ok(keys.join(" "))
}

/// The keys applying one `para_format` target (alignment only).
fn para_keys(target: &Value) -> Result<String, String> {
    let mut keys = Vec::new();
    for (prop, value) in target.as_object().into_iter().flatten() {
        match (prop.as_str(), value.as_str()) {
            ("text", _) => {}
            ("alignment", Some("center")) => keys.push("ctrl+e"),
            ("alignment", Some("right")) => keys.push("ctrl+r"),
            ("alignment", Some("justify")) => keys.push("ctrl+j"),
            ("alignment", Some("left")) => keys.push("ctrl+l"),
            (other, _) => {
                return Err(format!(
                    "template para_format: `{other}` has no keyboard plan (only alignment)"
                ))
            }
        }
    }
    Ok(keys.join(" "))
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
                let keys = match template {
                    "char_format" => char_keys(t)?,
                    "para_format" => para_keys(t)?,
                    _ => String::new(),
                };
                plan.find(text_slot(t, "text", template)?, None);
                if template != "apply_style" {
                    plan.keys(&keys);
                    continue;
                }
                match text_slot(t, "style", template)? {
                    h @ ("Heading 1" | "Heading 2" | "Heading 3") => {
                        plan.keys(&format!("ctrl+{}", &h[8..]));
                    }
                    style => {
                        plan.keys("ctrl+F11 ctrl+a").text(style).keys("Return");
                    }
                }
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
    use crate::apps::office::{key, typed, wait, OPEN_TIMEOUT_MS};

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
                }
                Err(e) => assert!(
                    e.contains(tpl) && e.contains("no") && e.contains("plan"),
                    "{}: {e}",
                    t["task_id"]
                ),
            }
        }
        assert!(planned >= 18, "only {planned} Writer tasks planned");
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

    /// Properties without a verified keyboard plan are refused, not silently skipped.
    #[test]
    fn an_unplannable_property_is_refused_by_name() {
        let slots = serde_json::json!({"doc": "Documents/a.docx", "targets": [{"text": "x", "size": 20}]});
        let err = writer_plan("char_format", &slots).unwrap_err();
        assert!(err.contains("`size`"), "{err}");
        let err = writer_plan("page_setup", &slots).unwrap_err();
        assert!(err.contains("page_setup"), "{err}");
    }
}
