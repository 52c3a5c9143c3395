//! The code_editor ui-oracle planner: each code edit done in Geany with the keyboard, as a person
//! would — Ctrl+O and the file's path, Ctrl+H (Replace) with escape sequences on and "Replace
//! All → In Document", Ctrl+S — each step waiting for the window it expects to have the focus.
//!
//! Geany's settings tasks (`geany_pref`) go through its Preferences and Project Properties
//! dialogs ([`super::pref_plan`]): Geany rewrites geany.conf from memory when it quits, so the
//! file itself cannot be edited under it.

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::ui_plan::{PlanStep, Target, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

const HOME: &str = "/home/user";
const WAIT_MS: u64 = 20_000;

/// The title Geany's main window has while `rel` is the current document (`*` when modified).
fn title(rel: &str, modified: bool) -> String {
    let path = format!("{HOME}/{rel}");
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path.as_str()));
    format!("{}{base} - {dir} - Geany", if modified { "*" } else { "" })
}

/// The window titled `name` once it has the focus.
pub(super) fn focused_target(name: &str) -> Target {
    Target::Role {
        role: "focused_window".into(),
        name: name.into(),
    }
}

fn focused(name: String) -> PlanStep {
    PlanStep::WaitFor {
        target: focused_target(&name),
        timeout_ms: WAIT_MS,
    }
}

/// Geany's main window is up: its own title for a source file, its menu bar for a project
/// (whose title depends on the session Geany restores).
fn geany_up(slots: &Value) -> Result<PlanStep, String> {
    let open = slots
        .get("open")
        .and_then(Value::as_array)
        .and_then(|o| o.last())
        .and_then(Value::as_str)
        .ok_or("geany_pref: slot `open` is empty")?;
    if open.ends_with(".geany") {
        return Ok(PlanStep::WaitFor {
            target: Target::Role {
                role: "node".into(),
                name: "menu:Project".into(),
            },
            timeout_ms: WAIT_MS,
        });
    }
    Ok(focused(title(open, false)))
}

fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

fn typed(text: &str) -> PlanStep {
    PlanStep::Type { text: text.into() }
}

/// Text for Geany's Replace fields with "Use escape sequences" on.
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\t', "\\t")
}

/// (old, new) of one edit; an append (`old` empty) becomes a replacement of the file's last line.
fn replacement(files: &Value, path: &str, old: &str, new: &str) -> Result<(String, String), String> {
    if !old.is_empty() {
        return Ok((old.to_string(), new.to_string()));
    }
    let text = files
        .get(path)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("code_edit: no initial text for {path}"))?;
    let body = text.trim_end_matches('\n');
    let last = body.rsplit('\n').next().unwrap_or(body);
    if last.is_empty() || text.matches(last).count() != 1 {
        return Err(format!("code_edit: the last line of {path} is not unique"));
    }
    Ok((format!("{last}\n"), format!("{last}\n{new}")))
}

/// The plan of a `code_edit` task.
fn code_edit(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let edits = slots
        .get("edits")
        .and_then(Value::as_array)
        .ok_or("code_edit: slot `edits` missing")?;
    let files = slots.get("files").cloned().unwrap_or(Value::Null);
    let open = slots.get("open").and_then(Value::as_array);
    let current = open
        .and_then(|o| o.last())
        .and_then(Value::as_str)
        .ok_or("code_edit: slot `open` is empty")?;
    let mut steps = vec![focused(title(current, false))];
    let mut first_replace = true;
    let mut paths: Vec<&str> = Vec::new();
    for e in edits {
        if let Some(p) = e.get("path").and_then(Value::as_str) {
            if !paths.contains(&p) {
                paths.push(p);
            }
        }
    }
    for path in paths {
        steps.extend([
            key("ctrl+o"),
            focused("Open File".into()),
            typed(&format!("{HOME}/{path}")),
            key("Return"),
            focused(title(path, false)),
        ]);
        for e in edits.iter().filter(|e| e["path"] == path) {
            let field = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default();
            let (old, new) = replacement(&files, path, field("old"), field("new"))?;
            steps.extend([
                key("ctrl+h"),
                focused("Replace".into()),
                typed(&escaped(&old)),
                key("Tab"),
                typed(&escaped(&new)),
            ]);
            if first_replace {
                // Once per session: escape sequences on, case sensitive, "Replace All" expanded.
                steps.extend([key("alt+e"), key("alt+a"), key("alt+p")]);
                first_replace = false;
            }
            steps.extend([key("alt+i"), focused(title(path, true))]);
        }
        steps.extend([key("ctrl+s"), focused(title(path, false))]);
    }
    Ok(steps)
}

/// Plans code_editor tasks through Geany.
pub struct GeanyPlanner;

impl UiPlanner for GeanyPlanner {
    fn apps(&self) -> &[&'static str] {
        &["code_editor"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let slots = brief.structured.get("slots").cloned().unwrap_or(Value::Null);
        match template.rsplit('/').next().unwrap_or(template) {
            "code_edit" => code_edit(&slots),
            "geany_pref" => {
                let mut plan = vec![geany_up(&slots)?];
                plan.extend(super::pref_plan::geany_pref(&slots)?);
                Ok(plan)
            }
            other => Err(format!("template {other} has no Geany plan yet")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_append_becomes_a_replacement_of_the_unique_last_line() {
        let files = json!({"a.py": "x = 1\ny = 2\n"});
        let (old, new) = replacement(&files, "a.py", "", "\ndef f():\n    pass\n").unwrap();
        assert_eq!(old, "y = 2\n");
        assert_eq!(new, "y = 2\n\ndef f():\n    pass\n");
        assert_eq!(escaped("a\\b\n\tc"), "a\\\\b\\n\\tc");
        assert_eq!(
            title("projects/w/x.py", true),
            "*x.py - /home/user/projects/w - Geany"
        );
    }
}
