//! The issue operations of the tracker UI: each edits one issue the way the tracker would
//! (values checked against the workflow, the priorities, the users and the project's sprints;
//! `updated` stamped only when something changed) and names what was wrong when the input is bad.

use serde_json::{json, Map, Value};

use super::model::{arr, by_id, issue, labels, me, opt, s, statuses, user_name, PRIORITIES, TYPES};
use super::planning;
use crate::ui::{Ctx, Done, FormData, OpError};
pub use crate::ui::kit::{err, list_mut, one_of};

/// Every operation, with the state paths it can write (checked against the shipped tasks).
pub const OPS: &[(&str, &[&str])] = &[
    (
        "update_issue",
        &["issues.summary", "issues.description", "issues.updated"],
    ),
    (
        "update_details",
        &[
            "issues.status",
            "issues.priority",
            "issues.type",
            "issues.assignee",
            "issues.sprintId",
            "issues.storyPoints",
            "issues.updated",
        ],
    ),
    ("add_label", &["issues.labels", "issues.updated"]),
    ("remove_label", &["issues.labels", "issues.updated"]),
    ("add_comment", &["issues.comments", "issues.updated"]),
    (
        "create_issue",
        &[
            "issues.id",
            "issues.key",
            "issues.projectId",
            "issues.type",
            "issues.summary",
            "issues.description",
            "issues.status",
            "issues.priority",
            "issues.assignee",
            "issues.reporter",
            "issues.sprintId",
            "issues.storyPoints",
            "issues.labels",
            "issues.comments",
            "issues.created",
            "issues.updated",
        ],
    ),
    (
        "update_sprint",
        &[
            "sprints.name",
            "sprints.goal",
            "sprints.startDate",
            "sprints.endDate",
            "sprints.state",
        ],
    ),
    (
        "create_sprint",
        &[
            "sprints.id",
            "sprints.projectId",
            "sprints.name",
            "sprints.goal",
            "sprints.startDate",
            "sprints.endDate",
            "sprints.state",
        ],
    ),
    (
        "update_project",
        &["projects.name", "projects.lead", "projects.description"],
    ),
];

/// Runs operation `op` on `state`.
pub fn apply(op: &str, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    match op {
        "create_issue" => planning::create_issue(form, ctx, state),
        "update_sprint" => planning::update_sprint(form, state),
        "create_sprint" => planning::create_sprint(form, state),
        "update_project" => planning::update_project(form, state),
        _ => issue_op(op, form, ctx, state),
    }
}

/// The record of `key` whose `field` is `value`, for writing.
pub fn record_mut<'a>(
    state: &'a mut Value,
    key: &str,
    field: &str,
    value: &str,
) -> Result<&'a mut Map<String, Value>, OpError> {
    list_mut(state, key)?
        .iter_mut()
        .find(|r| s(r, field) == value)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| {
            OpError(format!(
                "there is no {} {value:?}",
                key.trim_end_matches('s')
            ))
        })
}

/// A user id from a picker (`""` = nobody).
pub fn user_choice(state: &Value, raw: &str, what: &str) -> Result<Value, OpError> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(Value::Null);
    }
    if by_id(arr(state, "users"), raw).is_none() {
        return err(format!("{what}: there is no user {raw:?}"));
    }
    Ok(json!(raw))
}

/// Story points: blank = none, else a number from 0 to 1000 (whole numbers stored as integers).
pub fn story_points(raw: &str) -> Result<Value, OpError> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(Value::Null);
    }
    let Ok(n) = raw.parse::<f64>() else {
        return err(format!("Story points must be a number, not {raw:?}"));
    };
    if !(0.0..=1000.0).contains(&n) {
        return err(format!(
            "Story points must be between 0 and 1000, not {raw}"
        ));
    }
    if n.fract() == 0.0 {
        Ok(json!(n as i64))
    } else {
        Ok(json!(n))
    }
}

/// A sprint of `project` an issue may join (`""` = the backlog); a closed sprint only when the
/// issue is already in it.
pub fn sprint_choice(
    state: &Value,
    raw: &str,
    project: &str,
    current: Option<&str>,
) -> Result<Value, OpError> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(Value::Null);
    }
    let Some(sp) = by_id(arr(state, "sprints"), raw) else {
        return err(format!("there is no sprint {raw:?}"));
    };
    if s(sp, "projectId") != project {
        return err(format!("{} belongs to another project", s(sp, "name")));
    }
    if s(sp, "state") == "closed" && current != Some(raw) {
        return err(format!(
            "{} is closed: pick an active or future sprint",
            s(sp, "name")
        ));
    }
    Ok(json!(raw))
}

/// Normalises a label: trimmed, lowercase, spaces to dashes; letters, digits, `-`, `_`, `.`.
pub fn label_name(raw: &str) -> Result<String, OpError> {
    let name = raw
        .trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-");
    if name.is_empty() {
        return err("Type a label first");
    }
    if name.chars().count() > 40 {
        return err("A label is at most 40 characters");
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || "-_.".contains(*c)))
    {
        return err(format!(
            "A label may hold letters, digits, -, _ and . only, not {bad:?}"
        ));
    }
    Ok(name)
}

fn issue_op(op: &str, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let key = form.non_blank("issue", "The issue")?.to_string();
    let Some(before) = issue(state, &key).cloned() else {
        return err(format!("there is no issue {key:?}"));
    };
    let mut set: Vec<(&str, Value)> = Vec::new();
    let message = match op {
        "update_issue" => {
            let summary = form.non_blank("summary", "The summary")?;
            set.push(("summary", json!(summary)));
            set.push((
                "description",
                json!(form.required("description")?.trim_end()),
            ));
            format!("Saved {key}")
        }
        "update_details" => {
            let project = s(&before, "projectId").to_string();
            set.push((
                "status",
                json!(one_of(
                    form.required("status")?,
                    &statuses(state),
                    "The status"
                )?),
            ));
            set.push((
                "priority",
                json!(one_of(
                    form.required("priority")?,
                    PRIORITIES,
                    "The priority"
                )?),
            ));
            set.push((
                "type",
                json!(one_of(form.required("type")?, TYPES, "The type")?),
            ));
            set.push((
                "assignee",
                user_choice(state, form.required("assignee")?, "The assignee")?,
            ));
            let current = opt(&before, "sprintId");
            set.push((
                "sprintId",
                sprint_choice(state, form.required("sprintId")?, &project, current)?,
            ));
            set.push(("storyPoints", story_points(form.required("storyPoints")?)?));
            let changed: Vec<String> = set
                .iter()
                .filter(|(f, v)| before.get(*f).unwrap_or(&Value::Null) != v)
                .map(|(f, v)| match (*f, v.as_str()) {
                    ("assignee", a) => format!("assignee {}", user_name(state, a)),
                    ("sprintId", sp) => format!("sprint {}", super::model::sprint_name(state, sp)),
                    (f, Some(text)) => format!("{f} {text}"),
                    (f, None) => format!(
                        "{f} {}",
                        if v.is_null() {
                            "none".into()
                        } else {
                            v.to_string()
                        }
                    ),
                })
                .collect();
            if changed.is_empty() {
                format!("{key} already had these details")
            } else {
                format!("Updated {key}: {}", changed.join(", "))
            }
        }
        "add_label" | "remove_label" => {
            let label = label_name(form.required("label")?)?;
            let mut now: Vec<String> = labels(&before).into_iter().map(String::from).collect();
            let had = now.contains(&label);
            if op == "add_label" && !had {
                now.push(label.clone());
            } else if op == "remove_label" {
                now.retain(|l| *l != label);
            }
            set.push(("labels", json!(now)));
            match (op, had) {
                ("add_label", false) => format!("Added label {label} to {key}"),
                ("add_label", true) => format!("{key} already has label {label}"),
                _ => format!("Removed label {label} from {key}"),
            }
        }
        "add_comment" => {
            let body = form.required("body")?.trim().to_string();
            if body.is_empty() {
                return err("Write a comment before posting");
            }
            let mut comments = arr(&before, "comments").to_vec();
            comments.push(json!({
                "id": next_comment_id(state), "author": me(state), "body": body,
                "created": ctx.today.rfc3339(),
            }));
            set.push(("comments", Value::Array(comments)));
            format!("Commented on {key}")
        }
        other => return err(format!("unknown operation {other:?}")),
    };
    let changed = set
        .iter()
        .any(|(f, v)| before.get(*f).unwrap_or(&Value::Null) != v);
    if changed {
        let rec = record_mut(state, "issues", "key", &key)?;
        for (f, v) in set {
            rec.insert(f.into(), v);
        }
        rec.insert("updated".into(), json!(ctx.today.rfc3339()));
    }
    Ok(Done { message, go: None })
}

/// The next comment id `c001`, `c002`, … not used on any issue.
fn next_comment_id(state: &Value) -> String {
    let used: std::collections::HashSet<&str> = arr(state, "issues")
        .iter()
        .flat_map(|i| arr(i, "comments"))
        .map(|c| s(c, "id"))
        .collect();
    (1..)
        .map(|n| format!("c{n:03}"))
        .find(|id| !used.contains(id.as_str()))
        .unwrap_or_default()
}
