//! The sprint page (`/sprint/<id>`: name, goal, dates and state, and the sprint's issues) and
//! the create-sprint form of a project (`/p/<id>/new-sprint`).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, issues_of, opt, s, sprints_of, SPRINT_STATES};
use super::shell::frame;
use super::widgets::{issue_table, plain, radios};
use crate::ui::page::back;

fn fields(sp: &Value, state_now: &str) -> Markup {
    html! {
        label for="f-name" { "Sprint name" }
        input #f-name type="text" name="name" value=(s(sp, "name")) required;
        label for="f-goal" { "Sprint goal" }
        input #f-goal type="text" name="goal" value=(s(sp, "goal"));
        div.dates {
            div.field {
                label for="f-start" { "Start date" }
                input #f-start type="text" name="startDate" value=(s(sp, "startDate")) placeholder="YYYY-MM-DD" size="10";
            }
            div.field {
                label for="f-end" { "End date" }
                input #f-end type="text" name="endDate" value=(s(sp, "endDate")) placeholder="YYYY-MM-DD" size="10";
            }
        }
        (radios("State", "state", &plain(SPRINT_STATES), state_now))
    }
}

/// `/sprint/<id>`.
pub fn page(state: &Value, id: &str) -> Option<(String, Markup)> {
    let sp = by_id(arr(state, "sprints"), id)?;
    let project = s(sp, "projectId");
    let here = format!("/sprint/{id}");
    let issues: Vec<&Value> = issues_of(state, project)
        .into_iter()
        .filter(|i| opt(i, "sprintId") == Some(id))
        .collect();
    let name = s(sp, "name");
    let content = html! {
        header.head {
            nav.crumbs aria-label="Breadcrumb" { a href={ "/p/" (project) "/backlog" } { "Backlog" } }
            h1 { (name) }
            span.state data-state=(s(sp, "state")) { (s(sp, "state")) }
        }
        div.scroll {
            form.sprint-form method="post" autocomplete="off" action="/op/update_sprint" {
                (back(&here))
                input type="hidden" name="sprint" value=(id);
                (fields(sp, s(sp, "state")))
                button type="submit" { "Save sprint" }
            }
            h2 { "Issues in this sprint (" (issues.len()) ")" }
            (issue_table(state, &format!("Issues in {name}"), &issues))
        }
    };
    Some((
        format!("{name} · issue tracker"),
        frame(state, project, "backlog", name, content),
    ))
}

/// `/p/<id>/new-sprint`.
pub fn new_sprint(state: &Value, project: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "projects"), project)?;
    let here = format!("/p/{project}/new-sprint");
    let content = html! {
        header.head { h1 { "Create a sprint in " (s(p, "name")) } }
        div.scroll {
            form.sprint-form method="post" autocomplete="off" action="/op/create_sprint" {
                (back(&here))
                input type="hidden" name="project" value=(project);
                (fields(&Value::Null, "future"))
                button type="submit" { "Create sprint" }
            }
        }
    };
    Some((
        "Create sprint · issue tracker".into(),
        frame(state, project, "backlog", "Create sprint", content),
    ))
}

/// `/sprints`: every project's sprints, with their state and dates.
pub fn index(state: &Value) -> (String, Markup) {
    let content = html! {
        header.head { h1 { "All sprints" } }
        div.scroll {
            @for p in arr(state, "projects") {
                @let id = s(p, "id");
                section.sprints aria-label={ (s(p, "name")) " sprints" } {
                    h2 { (s(p, "name")) " " a.quiet href={ "/p/" (id) "/new-sprint" } { "+ Create sprint in " (s(p, "key")) } }
                    table.sprints {
                        thead { tr { th { "Sprint" } th { "State" } th { "Dates" } th { "Goal" } } }
                        tbody {
                            @for sp in sprints_of(state, id) {
                                tr data-sprint=(s(sp, "id")) {
                                    td { a href={ "/sprint/" (s(sp, "id")) } { (s(sp, "name")) } }
                                    td { span.state data-state=(s(sp, "state")) { (s(sp, "state")) } }
                                    td.dates { (s(sp, "startDate")) " – " (s(sp, "endDate")) }
                                    td { (s(sp, "goal")) }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    (
        "All sprints · issue tracker".into(),
        frame(state, "", "sprints", "All sprints", content),
    )
}
