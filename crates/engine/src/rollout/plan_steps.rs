//! Small constructors the apps' `ui-oracle` planners write their plans with (one vocabulary for
//! the web apps; `node`, `wait_desk`, `key` and `typed` for the desktop applications), and the slot
//! reader they share.

use serde_json::Value;

use super::ui_plan::{PlanRefusal, PlanStep, Target};

/// How long a plan waits for a page element (a banner, a new page) before it fails.
pub const WAIT_MS: u64 = 15_000;

/// An element by accessible role and name.
pub fn role(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: name.into(),
    }
}

/// An element by CSS selector.
pub fn css(selector: impl Into<String>) -> Target {
    Target::Css {
        selector: selector.into(),
    }
}

/// Click `target`.
pub fn click(target: Target) -> PlanStep {
    PlanStep::Click { target }
}

/// Click a link or submit button, then wait for the new page to have loaded and painted.
pub fn submit(target: Target) -> PlanStep {
    PlanStep::Submit { target }
}

/// Run `steps` unless `target` is already on the page.
pub fn unless(target: Target, steps: Vec<PlanStep>) -> PlanStep {
    PlanStep::UnlessPresent { target, steps }
}

/// Replace the text of the field `target` with `text`.
pub fn fill(target: Target, text: &str) -> PlanStep {
    PlanStep::Fill {
        target,
        text: text.into(),
    }
}

/// Wait for an element matching `selector`.
pub fn wait(selector: String) -> PlanStep {
    PlanStep::WaitFor {
        target: css(selector),
        timeout_ms: WAIT_MS,
    }
}

/// How long a desktop application's plan waits for a target (its dialogs open slowly on a
/// loaded machine).
pub const DESK_WAIT_MS: u64 = 30_000;

/// A showing accessible node of a desktop application (`role:name[state]`, as
/// `ui_oracle_desktop` reads it).
pub fn node(spec: &str) -> Target {
    role("node", spec)
}

/// Waits up to [`DESK_WAIT_MS`] for `target` on a desktop application's screen.
pub fn wait_desk(target: Target) -> PlanStep {
    PlanStep::WaitFor {
        target,
        timeout_ms: DESK_WAIT_MS,
    }
}

/// Press a key or chord (`ctrl+s`, `Return`).
pub fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

/// Type `text` where the focus is.
pub fn typed(text: &str) -> PlanStep {
    PlanStep::Type { text: text.into() }
}

/// Waits for the success banner of operation `op`.
pub fn done(op: &str) -> PlanStep {
    wait(format!(".flash[data-op=\"{op}\"]:not(.error)"))
}

/// Opens the sidebar link to `href` (`nav.sidebar a[href=…]`) and waits for that page.
pub fn open_sidebar(href: &str) -> [PlanStep; 2] {
    [
        submit(css(format!("nav.sidebar a[href=\"{href}\"]"))),
        wait(format!("body[data-path=\"{href}\"]")),
    ]
}

/// A slot value as a form field holds it: strings as they are, null as blank, numbers as text.
pub fn form_value(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A slot holding one value or a list of them, each as [`form_value`].
pub fn form_values(v: &Value) -> Vec<String> {
    match v {
        Value::Array(items) => items.iter().map(form_value).collect(),
        other => vec![form_value(other)],
    }
}

/// The string member `key` of `v` (a task's slots or a record), or an error naming it.
pub fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, SlotError> {
    v[key].as_str().ok_or_else(|| SlotError::NotText {
        key: key.to_string(),
    })
}

/// A slot a plan needs is not there as the plan needs it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SlotError {
    /// The slot is missing or not a string.
    #[error("slot `{key}` is missing or not a string")]
    NotText {
        /// The slot's name.
        key: String,
    },
}

/// A planner refuses a task whose slot is unusable; the slot error is the refusal's source.
impl From<SlotError> for PlanRefusal {
    fn from(e: SlotError) -> Self {
        PlanRefusal::because(e.to_string(), e)
    }
}

/// The planners' helpers still build their refusals as text (`?` in a `Result<_, String>`).
impl From<SlotError> for String {
    fn from(e: SlotError) -> Self {
        e.to_string()
    }
}

/// The step a plan ends on: its last step, or the last step of a closing skip-if-done block
/// (planner tests check that it waits for the success banner).
#[cfg(test)]
pub fn final_step(plan: &[PlanStep]) -> Option<&PlanStep> {
    match plan.last() {
        Some(PlanStep::UnlessPresent { steps, .. }) => steps.last(),
        other => other,
    }
}

/// The brief a planner sees for a shipped task of `app` (planner tests).
#[cfg(test)]
pub fn shipped_brief(app: &str, task: &Value) -> crate::agents::TaskBrief {
    crate::agents::TaskBrief {
        task_id: task["task_id"].as_str().unwrap_or_default().into(),
        instruction: String::new(),
        context: String::new(),
        difficulty: String::new(),
        apps: vec![app.into()],
        skills: Vec::new(),
        structured: task.clone(),
    }
}
