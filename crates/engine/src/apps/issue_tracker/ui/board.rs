//! The board of a project: its columns (from the project's board, else one per status) holding
//! the cards of the active sprint's issues, or of every issue when no sprint is active.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, issues_of, opt, points, s, slug, sprints_of, statuses};
use super::shell::frame;
use super::widgets::{person, priority_badge, type_badge};

fn card(state: &Value, i: &Value) -> Markup {
    let key = s(i, "key");
    html! {
        li.card data-key=(key) {
            a href={ "/issue/" (key) } {
                span.key { (key) }
                span.summary { (s(i, "summary")) }
            }
            div.meta {
                (type_badge(s(i, "type"))) (priority_badge(s(i, "priority")))
                @let pts = points(i);
                @if !pts.is_empty() { span.points title="Story points" { (pts) } }
                (person(state, opt(i, "assignee")))
            }
        }
    }
}

/// `/p/<id>/board`.
pub fn board(state: &Value, project: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "projects"), project)?;
    let active = sprints_of(state, project)
        .into_iter()
        .find(|sp| s(sp, "state") == "active");
    let issues: Vec<&Value> = issues_of(state, project)
        .into_iter()
        .filter(|i| active.is_none_or(|sp| opt(i, "sprintId") == Some(s(sp, "id"))))
        .collect();
    let columns: Vec<(String, Vec<String>)> = match arr(state, "boards")
        .iter()
        .find(|b| s(b, "projectId") == project)
    {
        Some(b) if !arr(b, "columns").is_empty() => arr(b, "columns")
            .iter()
            .map(|c| {
                let sts = arr(c, "statuses")
                    .iter()
                    .filter_map(Value::as_str)
                    .map(String::from);
                (s(c, "name").to_string(), sts.collect())
            })
            .collect(),
        _ => statuses(state)
            .into_iter()
            .map(|st| (st.to_string(), vec![st.to_string()]))
            .collect(),
    };
    let name = s(p, "name");
    let content = html! {
        header.head {
            h1 { (name) " board" }
            @if let Some(sp) = active {
                a.sprint href={ "/sprint/" (s(sp, "id")) } { (s(sp, "name")) }
                span.dates { (s(sp, "startDate")) " – " (s(sp, "endDate")) }
                @if !s(sp, "goal").is_empty() { span.goal { "Goal: " (s(sp, "goal")) } }
            } @else {
                span.dates { "No active sprint: every issue is shown" }
            }
        }
        div.board {
            @for (col, sts) in &columns {
                @let cards: Vec<&&Value> = issues.iter().filter(|i| sts.iter().any(|st| st == s(i, "status"))).collect();
                section.column data-status=(slug(col)) aria-label=(col) {
                    h2 { (col) " " span.count { (cards.len()) } }
                    ul.cards { @for i in &cards { (card(state, i)) } }
                }
            }
        }
    };
    Some((
        format!("{name} board · issue tracker"),
        frame(state, project, "board", &format!("{name} board"), content),
    ))
}
