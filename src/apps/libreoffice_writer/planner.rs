//! Writer's ui-oracle planner: keyboard-first plans through LibreOffice's own UI — the Find &
//! Replace dialog (Ctrl+H; Find All selects the phrase), formatting shortcuts (Ctrl+B/I/U,
//! Ctrl+E/R/J, Ctrl+1..3), the Apply Style box (Ctrl+F11), Ctrl+Enter page breaks, Ctrl+S — each
//! dialog step waiting for the focused window's title. Templates or properties without a verified
//! keyboard plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, Target, UiPlanner};

/// The Find & Replace dialog's window title.
const FIND_DIALOG: &str = "Find and Replace";
/// How long LibreOffice may take to show the document (first start of a fresh profile).
const OPEN_TIMEOUT_MS: u64 = 60_000;
/// How long a dialog may take to appear or close.
const DIALOG_TIMEOUT_MS: u64 = 10_000;

fn focused(title: &str) -> Target {
    Target::Role {
        role: "focused_window".into(),
        name: title.into(),
    }
}

fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

fn typed(text: &str) -> PlanStep {
    PlanStep::Type { text: text.into() }
}

fn wait(title: &str, timeout_ms: u64) -> PlanStep {
    PlanStep::WaitFor {
        target: focused(title),
        timeout_ms,
    }
}

/// A plan under construction for one document window of LibreOffice.
pub(crate) struct LoPlan {
    /// The document window's title (`memo.docx - LibreOffice Writer`).
    title: String,
    /// Tabs from the Replace field to the Replace All button (Writer 6, Impress 5: no Find All).
    tabs_to_replace_all: usize,
    /// Whether the Find dialog was opened already (its Match case box keeps its state).
    match_case_set: bool,
    /// The steps so far.
    pub(crate) steps: Vec<PlanStep>,
}

impl LoPlan {
    /// A plan for the document at `doc` (a path under the home) in the application `app_title`
    /// (`Writer`, `Impress`): first, wait for its window to have the focus.
    pub(crate) fn new(doc: &str, app_title: &str, tabs_to_replace_all: usize) -> Self {
        let name = doc.rsplit('/').next().unwrap_or(doc);
        let title = format!("{name} - LibreOffice {app_title}");
        let steps = vec![wait(&title, OPEN_TIMEOUT_MS)];
        LoPlan {
            title,
            tabs_to_replace_all,
            match_case_set: false,
            steps,
        }
    }

    /// Presses `keys` (chords separated by spaces).
    pub(crate) fn keys(&mut self, keys: &str) -> &mut Self {
        self.steps.push(key(keys));
        self
    }

    /// Types `text` where the focus is.
    pub(crate) fn text(&mut self, text: &str) -> &mut Self {
        self.steps.push(typed(text));
        self
    }

    /// Opens Ctrl+H, types `find` with Match case on; then either Replace All with `replace`,
    /// or Find All (the document selection becomes every occurrence); closes the dialog and
    /// waits for the document window to have the focus again.
    pub(crate) fn find(&mut self, find: &str, replace: Option<&str>) -> &mut Self {
        // A window that has just appeared may drop the first chord: press it again while the
        // dialog is not there (twice at most), then wait for it.
        self.keys("ctrl+h");
        for _ in 0..2 {
            self.steps.push(PlanStep::UnlessPresent {
                target: focused(FIND_DIALOG),
                steps: vec![key("ctrl+h")],
            });
        }
        self.steps.push(wait(FIND_DIALOG, DIALOG_TIMEOUT_MS));
        self.keys("ctrl+a").text(find).keys("Tab Tab");
        if !self.match_case_set {
            self.keys("space");
            self.match_case_set = true;
        }
        self.keys("Tab Tab");
        match replace {
            Some(new) => {
                let tabs = vec!["Tab"; self.tabs_to_replace_all].join(" ");
                self.keys("ctrl+a").text(new).keys(&format!("{tabs} Return"));
            }
            None => {
                self.keys("Tab Tab Return");
            }
        }
        self.keys("Escape");
        self.steps.push(PlanStep::UnlessPresent {
            target: focused(&self.title),
            steps: vec![key("Escape")],
        });
        self.steps.push(wait(&self.title, DIALOG_TIMEOUT_MS));
        self
    }

    /// Saves with Ctrl+S (the profile answers "Keep current format") and waits for the focus.
    pub(crate) fn save(mut self) -> Vec<PlanStep> {
        self.keys("ctrl+s");
        self.steps.push(wait(&self.title, DIALOG_TIMEOUT_MS));
        self.steps
    }
}

/// A string slot.
pub(crate) fn text_slot<'a>(v: &'a Value, key: &str, template: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("template {template}: slot `{key}` missing"))
}

/// An array slot.
pub(crate) fn list_slot<'a>(
    v: &'a Value,
    key: &str,
    template: &str,
) -> Result<&'a Vec<Value>, String> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("template {template}: slot `{key}` missing"))
}

/// The template name and slots of a task.
pub(crate) fn template_of(brief: &TaskBrief) -> Result<(&str, &Value), String> {
    let template = brief
        .structured
        .get("template")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
    let slots = brief
        .structured
        .get("slots")
        .ok_or_else(|| format!("task {} has no slots", brief.task_id))?;
    Ok((template.rsplit('/').next().unwrap_or(template), slots))
}

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
