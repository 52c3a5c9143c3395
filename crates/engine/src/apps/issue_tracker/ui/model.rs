//! Read access to an issue-tracker state document (tolerant of missing fields: a page of a
//! partial state renders what is there). The generic accessors are the shared ones ([`crate::ui::kit`]).

use serde_json::Value;

pub use crate::ui::kit::{arr, by_id, s};

/// The priorities, highest first (the manifest's vocabulary).
pub const PRIORITIES: &[&str] = &["Highest", "High", "Medium", "Low", "Lowest"];
/// The issue types.
pub const TYPES: &[&str] = &["story", "bug", "task", "epic"];
/// The sprint states, in the order a sprint goes through them.
pub const SPRINT_STATES: &[&str] = &["future", "active", "closed"];

/// The signed-in user's id.
pub fn me(state: &Value) -> &str {
    s(state, "currentUser")
}

/// A user's name, or `Unassigned` for none, or the id for an unknown user.
pub fn user_name<'a>(state: &'a Value, id: Option<&'a str>) -> &'a str {
    match id {
        None | Some("") => "Unassigned",
        Some(id) => by_id(arr(state, "users"), id)
            .map(|u| s(u, "name"))
            .filter(|n| !n.is_empty())
            .unwrap_or(id),
    }
}

/// The workflow's statuses (the manifest's four when the document has none).
pub fn statuses(state: &Value) -> Vec<&str> {
    let listed: Vec<&str> = state
        .get("workflow")
        .map(|w| arr(w, "statuses"))
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if listed.is_empty() {
        vec!["To Do", "In Progress", "In Review", "Done"]
    } else {
        listed
    }
}

/// A nullable string field (`assignee`, `sprintId`).
pub fn opt<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|x| !x.is_empty())
}

/// The issue with key `key` (`WEB-102`).
pub fn issue<'a>(state: &'a Value, key: &str) -> Option<&'a Value> {
    arr(state, "issues").iter().find(|i| s(i, "key") == key)
}

/// The number in an issue key (`WEB-102` → 102), for ordering.
pub fn key_number(key: &str) -> u64 {
    key.rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The issues of a project, in key order.
pub fn issues_of<'a>(state: &'a Value, project: &str) -> Vec<&'a Value> {
    let mut list: Vec<&Value> = arr(state, "issues")
        .iter()
        .filter(|i| s(i, "projectId") == project)
        .collect();
    list.sort_by_key(|i| key_number(s(i, "key")));
    list
}

/// The sprints of a project, in document order.
pub fn sprints_of<'a>(state: &'a Value, project: &str) -> Vec<&'a Value> {
    arr(state, "sprints")
        .iter()
        .filter(|sp| s(sp, "projectId") == project)
        .collect()
}

/// The name of a sprint, `Backlog` for none.
pub fn sprint_name<'a>(state: &'a Value, id: Option<&'a str>) -> &'a str {
    match id {
        None => "Backlog",
        Some(id) => by_id(arr(state, "sprints"), id)
            .map(|sp| s(sp, "name"))
            .unwrap_or(id),
    }
}

/// Every label used on some issue, sorted.
pub fn known_labels(state: &Value) -> Vec<&str> {
    let mut all: Vec<&str> = arr(state, "issues")
        .iter()
        .flat_map(|i| arr(i, "labels"))
        .filter_map(Value::as_str)
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// The labels of an issue.
pub fn labels(issue: &Value) -> Vec<&str> {
    arr(issue, "labels")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// Story points as text (`""` for none; `2.5` kept, `5.0` shown as `5`).
pub fn points(issue: &Value) -> String {
    match issue.get("storyPoints") {
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// A CSS-safe slug of a status (`In Progress` → `in-progress`).
pub fn slug(text: &str) -> String {
    text.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

/// The first project's id (the start page).
pub fn first_project(state: &Value) -> Option<&str> {
    arr(state, "projects").first().map(|p| s(p, "id"))
}
