//! The issue-tracker [`UiPlanner`]: a plan per shipped template (update_records on issues,
//! sprints and projects, create_record of issues and sprints, add_comment), built from the
//! task's structured slots. An issue is reached as a person would: its project in the sidebar
//! (by the project key in the issue key), the List view, the issue's key. Choices are radio
//! buttons and pop-over pickers named by value (a user or sprint id is what the slots hold);
//! text fields by their labels. Every form post is a [`PlanStep::Submit`] followed by a wait for
//! that operation's success banner, so an error banner is a miss; a label already on an issue is
//! left alone.

use serde_json::{Map, Value};

use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{
    click, css, done, fill, form_value, form_values, role, submit, text, wait,
};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

/// The issue-tracker planner.
pub struct IssueTrackerPlanner;

/// Opens the board of the project whose sidebar link matches `which` (an attribute test).
pub(crate) fn open_project(which: &str) -> Vec<PlanStep> {
    vec![
        submit(css(format!("nav.sidebar a.project{which}"))),
        wait(format!(
            "body[data-path$=\"/board\"] nav.sidebar a.project.current{which}"
        )),
    ]
}

/// From anywhere to the page of issue `key`: its project, the List view, the key.
fn open_issue(key: &str) -> Result<Vec<PlanStep>, String> {
    let pkey = key
        .split_once('-')
        .map(|(p, _)| p)
        .ok_or_else(|| format!("{key:?} is not an issue key like WEB-102"))?;
    let mut p = open_project(&format!("[data-pkey=\"{pkey}\"]"));
    p.extend([
        submit(css("nav.sidebar ul.views a[href$=\"/list\"]")),
        wait("body[data-path$=\"/list\"]".into()),
        submit(css(format!("tr[data-key=\"{key}\"] td.key a"))),
        wait(format!("body[data-path=\"/issue/{key}\"]")),
    ]);
    Ok(p)
}

/// A radio of form `op` by field and value.
fn radio(op: &str, field: &str, value: &str) -> PlanStep {
    click(css(format!(
        "form[action=\"/op/{op}\"] input[name=\"{field}\"][value=\"{value}\"]"
    )))
}

/// Opens the picker of `field` and picks `value` (`""` = none).
fn pick(op: &str, field: &str, value: &str) -> [PlanStep; 2] {
    [
        click(css(format!(
            "form[action=\"/op/{op}\"] details.picker[data-field=\"{field}\"] summary"
        ))),
        radio(op, field, value),
    ]
}

/// Opens issue `key` and changes its fields (`labels+` adds labels it does not have yet).
pub(crate) fn issue_changes(
    key: &str,
    changes: &Map<String, Value>,
) -> Result<Vec<PlanStep>, String> {
    let mut p = open_issue(key)?;
    let (mut details, mut text_fields, mut labels) = (Vec::new(), Vec::new(), Vec::new());
    for (field, v) in changes {
        let value = form_value(v);
        match field.as_str() {
            "status" | "priority" | "type" => details.push(radio("update_details", field, &value)),
            "assignee" | "sprintId" => details.extend(pick("update_details", field, &value)),
            "storyPoints" => details.push(fill(role("textbox", "Story points"), &value)),
            "summary" => text_fields.push(fill(role("textbox", "Summary"), &value)),
            "description" => text_fields.push(fill(role("textbox", "Description"), &value)),
            "labels+" => labels.extend(form_values(v)),
            other => return Err(format!("no plan changes issue field `{other}`")),
        }
    }
    if !text_fields.is_empty() {
        p.extend(text_fields);
        p.extend([
            submit(role("button", "Save summary and description")),
            done("update_issue"),
        ]);
    }
    if !details.is_empty() {
        p.extend(details);
        p.extend([
            submit(role("button", "Save details")),
            done("update_details"),
        ]);
    }
    for l in labels {
        p.push(PlanStep::UnlessPresent {
            target: css(format!("li.label-chip[data-label=\"{l}\"]")),
            steps: vec![
                // An input with a datalist is a combobox to the accessibility tree.
                fill(
                    css("form[action=\"/op/add_label\"] input[name=\"label\"]"),
                    &l,
                ),
                submit(role("button", "Add label")),
                done("add_label"),
            ],
        });
    }
    Ok(p)
}

/// The name, goal, dates and state fields of a sprint form.
fn sprint_fields(op: &str, fields: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = Vec::new();
    for (field, v) in fields {
        let value = form_value(v);
        let label = match field.as_str() {
            "name" => "Sprint name",
            "goal" => "Sprint goal",
            "startDate" => "Start date",
            "endDate" => "End date",
            "state" => {
                p.push(radio(op, "state", &value));
                continue;
            }
            "id" | "projectId" if op == "create_sprint" => continue,
            other => return Err(format!("no plan changes sprint field `{other}`")),
        };
        p.push(fill(role("textbox", label), &value));
    }
    Ok(p)
}

fn sprint_changes(id: &str, changes: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = vec![
        submit(css("nav.sidebar a.sprints")),
        wait("body[data-path=\"/sprints\"]".into()),
        submit(css(format!("tr[data-sprint=\"{id}\"] a"))),
        wait(format!("body[data-path=\"/sprint/{id}\"]")),
    ];
    p.extend(sprint_fields("update_sprint", changes)?);
    p.extend([submit(role("button", "Save sprint")), done("update_sprint")]);
    Ok(p)
}

fn project_changes(id: &str, changes: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = open_project(&format!("[href=\"/p/{id}/board\"]"));
    p.extend([
        submit(css("nav.sidebar ul.views a[href$=\"/settings\"]")),
        wait(format!("body[data-path=\"/p/{id}/settings\"]")),
    ]);
    for (field, v) in changes {
        let value = form_value(v);
        match field.as_str() {
            "name" => p.push(fill(role("textbox", "Project name"), &value)),
            "description" => p.push(fill(role("textbox", "Project description"), &value)),
            "lead" => p.extend(pick("update_project", "lead", &value)),
            other => return Err(format!("no plan changes project field `{other}`")),
        }
    }
    p.extend([
        submit(role("button", "Save project")),
        done("update_project"),
    ]);
    Ok(p)
}

/// Files a new issue `rec` in its project, named by `projectId` or, without one, by its key
/// (`projectKey`, as a person reads it in the sidebar).
pub(crate) fn create_issue(rec: &Value) -> Result<Vec<PlanStep>, String> {
    let which = match rec["projectId"].as_str() {
        Some(id) => format!("[href=\"/p/{id}/board\"]"),
        None => format!("[data-pkey=\"{}\"]", text(rec, "projectKey")?),
    };
    if !matches!(rec["status"].as_str(), None | Some("To Do")) {
        return Err(format!(
            "a new issue starts To Do; no plan files one {}",
            rec["status"]
        ));
    }
    let mut p = open_project(&which);
    p.extend([
        submit(role("link", "+ Create issue")),
        wait("body[data-path$=\"/new-issue\"]".into()),
        radio("create_issue", "type", text(rec, "type")?),
        fill(role("textbox", "Summary"), text(rec, "summary")?),
    ]);
    let description = rec["description"].as_str().unwrap_or_default();
    if !description.is_empty() {
        p.push(fill(role("textbox", "Description"), description));
    }
    p.push(radio("create_issue", "priority", text(rec, "priority")?));
    for field in ["assignee", "sprintId"] {
        if let Some(v) = rec[field].as_str() {
            p.extend(pick("create_issue", field, v));
        }
    }
    if !rec["storyPoints"].is_null() {
        p.push(fill(
            role("textbox", "Story points"),
            &form_value(&rec["storyPoints"]),
        ));
    }
    let labels = form_values(&rec["labels"]);
    if !labels.is_empty() {
        p.push(fill(
            role("textbox", "More labels (comma-separated)"),
            &labels.join(", "),
        ));
    }
    p.extend([submit(role("button", "Create issue")), done("create_issue")]);
    Ok(p)
}

fn create_sprint(rec: &Value) -> Result<Vec<PlanStep>, String> {
    let project = text(rec, "projectId")?;
    let mut p = open_project(&format!("[href=\"/p/{project}/board\"]"));
    p.extend([
        submit(css("nav.sidebar ul.views a[href$=\"/backlog\"]")),
        wait(format!("body[data-path=\"/p/{project}/backlog\"]")),
        submit(role("link", "+ Create sprint")),
        wait(format!("body[data-path=\"/p/{project}/new-sprint\"]")),
    ]);
    let mut fields = rec.as_object().cloned().unwrap_or_default();
    if fields.get("state").and_then(Value::as_str) == Some("future") {
        fields.remove("state");
    }
    p.extend(sprint_fields("create_sprint", &fields)?);
    p.extend([
        submit(role("button", "Create sprint")),
        done("create_sprint"),
    ]);
    Ok(p)
}

impl UiPlanner for IssueTrackerPlanner {
    fn apps(&self) -> &[&'static str] {
        &["issue-tracker"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief.structured["template"].as_str().unwrap_or_default();
        let slots = &brief.structured["slots"];
        match template {
            "add_comment" => {
                let mut p = open_issue(text(slots, "issue")?)?;
                p.extend([
                    fill(role("textbox", "Add a comment"), text(slots, "text")?),
                    submit(role("button", "Comment")),
                    done("add_comment"),
                ]);
                Ok(p)
            }
            "update_records" => {
                let changes = slots["changes"]
                    .as_object()
                    .ok_or("slot `changes` is not an object")?;
                let keys = slots["keys"]
                    .as_array()
                    .ok_or("slot `keys` is not a list")?;
                let mut p = Vec::new();
                for k in keys {
                    let k = k.as_str().ok_or("slot `keys` holds a non-string")?;
                    p.extend(match slots["collection"].as_str() {
                        Some("issues") => issue_changes(k, changes)?,
                        Some("sprints") => sprint_changes(k, changes)?,
                        Some("projects") => project_changes(k, changes)?,
                        other => {
                            return Err(PlanRefusal::new(format!(
                                "update_records on collection {other:?} has no issue-tracker plan"
                            )))
                        }
                    });
                }
                Ok(p)
            }
            "create_record" => match slots["collection"].as_str() {
                Some("issues") => create_issue(&slots["record"]),
                Some("sprints") => create_sprint(&slots["record"]),
                other => Err(format!(
                    "create_record in {other:?} has no issue-tracker plan"
                )),
            },
            other => Err(format!("template {other:?} has no issue-tracker plan")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::ui_plan::Target;

    fn brief(task: &Value) -> TaskBrief {
        crate::rollout::plan_steps::shipped_brief("issue-tracker", task)
    }

    #[test]
    fn every_shipped_issue_tracker_task_has_a_plan_ending_in_its_success_banner() {
        let tasks: Value =
            serde_json::from_str(include_str!("../tasks.json"))
                .unwrap();
        for task in tasks["tasks"].as_array().unwrap() {
            let id = &task["task_id"];
            let plan = IssueTrackerPlanner
                .plan(&brief(task))
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            let last = crate::rollout::plan_steps::final_step(&plan);
            assert!(
                matches!(last, Some(PlanStep::WaitFor { target: Target::Css { selector }, .. }) if selector.starts_with(".flash")),
                "{id}"
            );
            // Every form post waits for its banner; every navigation for its page.
            for (i, step) in plan.iter().enumerate() {
                if matches!(step, PlanStep::Submit { .. }) {
                    assert!(
                        matches!(plan.get(i + 1), Some(PlanStep::WaitFor { .. })),
                        "{id}: step {i}"
                    );
                }
            }
        }
        let bad = serde_json::json!({"template": "update_records", "slots": {"collection": "issues", "keys": ["WEB-101"], "changes": {"reporter": "u2"}}});
        assert_eq!(
            IssueTrackerPlanner.plan(&brief(&bad)).unwrap_err(),
            "no plan changes issue field `reporter`"
        );
        let key = serde_json::json!({"template": "add_comment", "slots": {"issue": "WEB102", "text": "x"}});
        assert!(IssueTrackerPlanner
            .plan(&brief(&key))
            .unwrap_err()
            .contains("not an issue key"));
        let none = serde_json::json!({"template": "send_email", "slots": {}});
        assert!(IssueTrackerPlanner
            .plan(&brief(&none))
            .unwrap_err()
            .contains("no issue-tracker plan"));
    }
}
