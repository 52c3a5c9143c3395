//! Small pieces the tracker pages share: badges for type and priority, the avatar of a person,
//! radio groups and the pop-over pickers (people, sprints) built from `<details>` with no script.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, opt, s, sprint_name, user_name};
pub use crate::ui::kit::{plain, radios};

/// The type of an issue as a badge.
pub fn type_badge(kind: &str) -> Markup {
    html! { span.type-badge data-type=(kind) title={ "Type: " (kind) } { (kind) } }
}

/// The priority of an issue as a badge.
pub fn priority_badge(priority: &str) -> Markup {
    html! { span.priority data-priority=(priority) title={ "Priority: " (priority) } { (priority) } }
}

/// The initials avatar and name of a person (or `Unassigned`).
pub fn person(state: &Value, id: Option<&str>) -> Markup {
    let name = user_name(state, id);
    let initials: String = name
        .split_whitespace()
        .filter_map(|w| w.chars().next())
        .take(2)
        .collect();
    html! {
        span.person data-user=[id] {
            span.avatar.none[id.is_none()] aria-hidden="true" { (initials) } " " (name)
        }
    }
}

/// A pop-over picker: the summary shows `shown`; opening it shows the radio choices.
fn picker(
    label: &str,
    name: &str,
    shown: Markup,
    choices: &[(String, String)],
    current: &str,
) -> Markup {
    html! {
        div.field {
            span.label { (label) }
            details.picker data-field=(name) {
                summary aria-label={ (label) ": change" } { (shown) }
                div.options role="group" aria-label=(label) {
                    @for (value, text) in choices {
                        label.choice {
                            input type="radio" name=(name) value=(value) checked[value == current];
                            (text)
                        }
                    }
                }
            }
        }
    }
}

/// The people picker for `name` (`assignee`, `lead`); `none` labels the empty choice, if any.
pub fn people_picker(
    state: &Value,
    label: &str,
    name: &str,
    current: Option<&str>,
    none: Option<&str>,
) -> Markup {
    let mut choices: Vec<(String, String)> = none
        .map(|n| vec![(String::new(), n.to_string())])
        .unwrap_or_default();
    choices.extend(
        arr(state, "users")
            .iter()
            .map(|u| (s(u, "id").to_string(), s(u, "name").to_string())),
    );
    picker(
        label,
        name,
        person(state, current),
        &choices,
        current.unwrap_or_default(),
    )
}

/// The sprint picker of an issue in `projects`: the backlog, then every sprint not closed (and
/// the issue's own sprint even when closed).
pub fn sprint_picker(state: &Value, projects: &[&str], current: Option<&str>) -> Markup {
    let mut choices = vec![(String::new(), "Backlog (no sprint)".to_string())];
    for sp in arr(state, "sprints") {
        let id = s(sp, "id");
        if projects.contains(&s(sp, "projectId"))
            && (s(sp, "state") != "closed" || Some(id) == current)
        {
            choices.push((
                id.to_string(),
                format!("{} · {}", s(sp, "name"), s(sp, "state")),
            ));
        }
    }
    let shown = html! { span.sprint-name { (sprint_name(state, current)) } };
    picker(
        "Sprint",
        "sprintId",
        shown,
        &choices,
        current.unwrap_or_default(),
    )
}

/// One issue as a row of a list: key link, summary, and its main fields.
pub fn issue_row(state: &Value, i: &Value) -> Markup {
    let key = s(i, "key");
    html! {
        tr.issue data-key=(key) {
            td.key { a href={ "/issue/" (key) } { (key) } }
            td { (type_badge(s(i, "type"))) }
            td.summary { a href={ "/issue/" (key) } tabindex="-1" { (s(i, "summary")) } }
            td { span.status data-status=(s(i, "status")) { (s(i, "status")) } }
            td { (priority_badge(s(i, "priority"))) }
            td { (person(state, opt(i, "assignee"))) }
            td.points { (super::model::points(i)) }
            td.labels { @for l in super::model::labels(i) { span.label-chip { (l) } } }
        }
    }
}

/// The head of an issue table.
pub fn issue_table(state: &Value, label: &str, issues: &[&Value]) -> Markup {
    html! {
        table.issues aria-label=(label) {
            thead { tr { th { "Key" } th { "Type" } th { "Summary" } th { "Status" } th { "Priority" } th { "Assignee" } th { "Points" } th { "Labels" } } }
            tbody { @for i in issues { (issue_row(state, i)) } }
        }
        @if issues.is_empty() { p.empty { "No issues." } }
    }
}
