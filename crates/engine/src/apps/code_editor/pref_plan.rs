//! Plans of the `geany_pref` tasks: Geany's own dialogs, as a person changes settings —
//! Edit > Preferences (Ctrl+Alt+P) for geany.conf, Project > Properties for a `*.geany` file —
//! a page tab per group, a check box, a radio button or a captioned field per key, then OK
//! (Alt+O), which makes Geany write the file at once. Every click is checked against the
//! accessibility tree (the tab selected, the box ticked) and the file against the disk.

use serde_json::Value;

use crate::rollout::ui_plan::{PlanStep, Target};

const WAIT_MS: u64 = 20_000;

/// How one setting is changed on its page.
enum Control {
    /// A check box by its label (ticked for `true`).
    Check(&'static str),
    /// Radio buttons: (value, label) pairs.
    Radio(&'static [(&'static str, &'static str)]),
    /// An editable field (entry, spin button, text view) by the caption on its row.
    Field(&'static str),
}

const INDENT: &[(&str, &str)] = &[("0", "Spaces"), ("1", "Tabs"), ("2", "Tabs and spaces")];
const MARKER: &[(&str, &str)] = &[("0", "Disabled"), ("1", "Use global settings"), ("2", "Custom")];

/// The page tabs (outer first) and the control of a `section/key` of geany.conf or a project.
fn control(key: &str) -> Option<(&'static [&'static str], Control)> {
    use Control::{Check, Field, Radio};
    const IND: &[&str] = &["Editor", "Indentation"];
    const DISP: &[&str] = &["Editor", "Display"];
    const FEAT: &[&str] = &["Editor", "Features"];
    Some(match key {
        "geany/pref_editor_tab_width" => (IND, Field("Width:")),
        "geany/indent_type" => (IND, Radio(INDENT)),
        "geany/show_line_endings" => (DISP, Check("Show line endings")),
        "geany/show_linenumber_margin" => (DISP, Check("Show line numbers")),
        "geany/show_white_space" => (DISP, Check("Show white space")),
        "geany/show_indent_guide" => (DISP, Check("Show indentation guides")),
        "geany/long_line_column" => (DISP, Field("Column:")),
        "geany/line_wrapping" => (FEAT, Check("Line wrapping")),
        "geany/use_folding" => (FEAT, Check("Code folding")),
        "geany/pref_editor_trail_space" => (&["Files"], Check("Strip trailing spaces and tabs")),
        "geany/pref_editor_new_line" => (&["Files"], Check("Ensure new line at file end")),
        "geany/pref_editor_replace_tabs" => (&["Files"], Check("Replace tabs with space")),
        "geany/pref_template_developer" => (&["Templates"], Field("Developer:")),
        "project/name" => (&["Project"], Field("Name:")),
        "project/description" => (&["Project"], Field("Description:")),
        "project/file_patterns" => (&["Project"], Field("File patterns:")),
        "indentation/indent_width" => (&["Indentation"], Field("Width:")),
        "indentation/indent_type" => (&["Indentation"], Radio(INDENT)),
        "file_prefs/strip_trailing_spaces" => (&["Files"], Check("Strip trailing spaces and tabs")),
        "file_prefs/final_new_line" => (&["Files"], Check("Ensure new line at file end")),
        "long line marker/long_line_behaviour" => (&["Editor"], Radio(MARKER)),
        "long line marker/long_line_column" => (&["Editor"], Field("Column:")),
        _ => return None,
    })
}

fn node(spec: &str) -> Target {
    Target::Role {
        role: "node".into(),
        name: spec.into(),
    }
}

fn wait(target: Target) -> PlanStep {
    PlanStep::WaitFor {
        target,
        timeout_ms: WAIT_MS,
    }
}

fn click(spec: &str) -> PlanStep {
    PlanStep::Click { target: node(spec) }
}

fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

/// The steps that set one control to `value`.
fn set(control: &Control, key_name: &str, value: &str) -> Result<Vec<PlanStep>, String> {
    Ok(match control {
        Control::Check(label) => {
            let on = value.eq_ignore_ascii_case("true");
            let (from, to) = if on { ("!checked", "checked") } else { ("checked", "!checked") };
            vec![
                click(&format!("check box:{label}[{from}]")),
                wait(node(&format!("check box:{label}[{to}]"))),
            ]
        }
        Control::Radio(options) => {
            let label = options
                .iter()
                .find(|(v, _)| *v == value)
                .map(|(_, l)| *l)
                .ok_or_else(|| format!("geany_pref: no choice of {key_name} means {value:?}"))?;
            vec![
                click(&format!("radio button:{label}")),
                wait(node(&format!("radio button:{label}[checked]"))),
            ]
        }
        Control::Field(caption) => {
            // Geany splits file patterns at spaces and writes the list with `;` itself.
            let text = if key_name == "project/file_patterns" {
                value.trim_end_matches(';').replace(';', " ")
            } else {
                value.to_string()
            };
            vec![
                PlanStep::Fill {
                    target: Target::Role {
                        role: "labelled".into(),
                        name: (*caption).into(),
                    },
                    text,
                },
                // Leave the field: a spin button takes its typed value when it loses the focus.
                key("Tab"),
            ]
        }
    })
}

/// The plan of a `geany_pref` task after Geany's window has the focus.
pub fn geany_pref(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let file = slots
        .get("file")
        .and_then(Value::as_str)
        .ok_or("geany_pref: slot `file` missing")?;
    let changes = slots
        .get("changes")
        .and_then(Value::as_object)
        .ok_or("geany_pref: slot `changes` missing")?;
    let project = file.ends_with(".geany");
    let mut steps = if project {
        vec![
            click("menu:Project"),
            click("menu item:Properties"),
            wait(super::planner::focused_target("Project Properties")),
        ]
    } else {
        vec![
            key("ctrl+alt+p"),
            wait(super::planner::focused_target("Preferences")),
        ]
    };
    let mut tabs: &[&str] = &[];
    for (k, v) in changes {
        let (path, ctl) = control(k).ok_or_else(|| {
            format!("geany_pref: {k} has no keyboard plan (Geany's font chooser is not planned)")
        })?;
        if path != tabs {
            for tab in path {
                steps.push(click(&format!("page tab:{tab}")));
                steps.push(wait(node(&format!("page tab:{tab}[selected]"))));
            }
            tabs = path;
        }
        let value = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        steps.extend(set(&ctl, k, &value)?);
    }
    steps.extend([
        key("alt+o"),
        PlanStep::WaitFor {
            target: Target::Role {
                role: "saved".into(),
                name: file.into(),
            },
            timeout_ms: WAIT_MS,
        },
    ]);
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fails on the old planner, which refused every geany_pref task.
    #[test]
    fn every_shipped_settings_task_but_the_font_one_has_a_dialog_plan() {
        let tasks: Value = serde_json::from_str(include_str!("tasks.json")).unwrap();
        let mut planned = 0;
        for t in tasks["tasks"].as_array().unwrap() {
            if t["template"] != "geany_pref" {
                continue;
            }
            match geany_pref(&t["slots"]) {
                Ok(plan) => {
                    assert_eq!(plan[plan.len() - 2], key("alt+o"), "{}", t["task_id"]);
                    planned += 1;
                }
                Err(e) => assert!(e.contains("editor_font"), "{}: {e}", t["task_id"]),
            }
        }
        assert!(planned >= 23, "{planned}");
        let plan = geany_pref(&json!({"file": "p/x.geany",
            "changes": {"project/file_patterns": "*.py;*.txt;"}}))
        .unwrap();
        assert!(plan.contains(&PlanStep::Fill {
            target: Target::Role { role: "labelled".into(), name: "File patterns:".into() },
            text: "*.py *.txt".into(),
        }));
    }
}
