//! The list view of a project (every issue, filtered by status or to the signed-in user's) and
//! its backlog (the active and future sprints with their issues, then the issues in no sprint).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, issues_of, me, opt, s, slug, sprints_of, statuses};
use super::shell::frame;
use super::widgets::issue_table;

/// `/p/<id>/list` and `/p/<id>/list/<filter>` (`mine` or a status slug such as `in-review`).
pub fn list(state: &Value, project: &str, filter: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "projects"), project)?;
    let sts = statuses(state);
    let status = sts.iter().find(|st| slug(st) == filter).copied();
    if !filter.is_empty() && filter != "mine" && status.is_none() {
        return None;
    }
    let me = me(state);
    let issues: Vec<&Value> = issues_of(state, project)
        .into_iter()
        .filter(|i| match (filter, status) {
            ("", _) => true,
            ("mine", _) => opt(i, "assignee") == Some(me),
            (_, st) => st == Some(s(i, "status")),
        })
        .collect();
    let mut tabs: Vec<(String, String)> = vec![
        (String::new(), "All".into()),
        ("mine".into(), "Assigned to me".into()),
    ];
    tabs.extend(sts.iter().map(|st| (slug(st), st.to_string())));
    let name = s(p, "name");
    let content = html! {
        header.head {
            h1 { (name) " issues" }
            span.count { (issues.len()) " issues" }
        }
        nav.filters aria-label="Filters" {
            @for (seg, label) in &tabs {
                @let href = if seg.is_empty() { format!("/p/{project}/list") } else { format!("/p/{project}/list/{seg}") };
                a.current[seg == filter] href=(href) aria-current=[(seg == filter).then_some("page")] { (label) }
            }
        }
        div.scroll { (issue_table(state, &format!("{name} issues"), &issues)) }
    };
    Some((
        format!("{name} issues · issue tracker"),
        frame(state, project, "list", &format!("{name} issues"), content),
    ))
}

fn sprint_section(state: &Value, sp: &Value, issues: &[&Value]) -> Markup {
    let id = s(sp, "id");
    let mine: Vec<&Value> = issues
        .iter()
        .copied()
        .filter(|i| opt(i, "sprintId") == Some(id))
        .collect();
    html! {
        section.sprint data-sprint=(id) aria-label=(s(sp, "name")) {
            header {
                h2 { a href={ "/sprint/" (id) } { (s(sp, "name")) } }
                span.state data-state=(s(sp, "state")) { (s(sp, "state")) }
                span.dates { (s(sp, "startDate")) " – " (s(sp, "endDate")) }
                @if !s(sp, "goal").is_empty() { span.goal { "Goal: " (s(sp, "goal")) } }
            }
            (issue_table(state, s(sp, "name"), &mine))
        }
    }
}

/// `/p/<id>/backlog`.
pub fn backlog(state: &Value, project: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "projects"), project)?;
    let issues = issues_of(state, project);
    let sprints = sprints_of(state, project);
    let open: Vec<&&Value> = sprints
        .iter()
        .filter(|sp| s(sp, "state") != "closed")
        .collect();
    let closed: Vec<&&Value> = sprints
        .iter()
        .filter(|sp| s(sp, "state") == "closed")
        .collect();
    let unplanned: Vec<&Value> = issues
        .iter()
        .copied()
        .filter(|i| opt(i, "sprintId").is_none())
        .collect();
    let name = s(p, "name");
    let content = html! {
        header.head {
            h1 { (name) " backlog" }
            a.button href={ "/p/" (project) "/new-sprint" } { "+ Create sprint" }
        }
        div.scroll {
            @for sp in &open { (sprint_section(state, sp, &issues)) }
            section.sprint aria-label="Backlog" {
                header { h2 { "Backlog" } span.count { (unplanned.len()) " issues" } }
                (issue_table(state, "Backlog", &unplanned))
            }
            @if !closed.is_empty() {
                section.closed aria-label="Closed sprints" {
                    h2 { "Closed sprints" }
                    ul { @for sp in &closed { li { a href={ "/sprint/" (s(sp, "id")) } { (s(sp, "name")) } " " span.dates { (s(sp, "startDate")) " – " (s(sp, "endDate")) } } } }
                }
            }
        }
    };
    Some((
        format!("{name} backlog · issue tracker"),
        frame(
            state,
            project,
            "backlog",
            &format!("{name} backlog"),
            content,
        ),
    ))
}
