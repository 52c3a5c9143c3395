//! The issue page: summary and description, comments and the comment box, and the details
//! panel (status, priority, type, assignee, sprint, story points, labels).

use chrono::{DateTime, Utc};
use maud::{html, Markup};
use serde_json::Value;

use super::model::{
    arr, by_id, issue, known_labels, labels, opt, points, s, statuses, user_name, PRIORITIES, TYPES,
};
use super::shell::frame;
use super::widgets::{people_picker, plain, radios, sprint_picker};
use crate::ui::page::back;
use crate::ui::Ctx;

fn when(ctx: &Ctx, at: &str) -> Markup {
    match DateTime::parse_from_rfc3339(at) {
        Ok(t) => {
            let t = t.with_timezone(&Utc);
            html! { time datetime=(at) { (ctx.today.label(t)) } }
        }
        Err(_) => html! { (at) },
    }
}

fn hidden(key: &str, here: &str) -> Markup {
    html! { (back(here)) input type="hidden" name="issue" value=(key); }
}

fn comments(state: &Value, ctx: &Ctx, i: &Value, here: &str) -> Markup {
    let key = s(i, "key");
    let list = arr(i, "comments");
    html! {
        section.comments aria-labelledby="h-comments" {
            h2 #h-comments { "Comments (" (list.len()) ")" }
            ol.comments {
                @for c in list {
                    li.comment data-comment=(s(c, "id")) {
                        div.meta { span.author { (user_name(state, opt(c, "author"))) } " " (when(ctx, s(c, "created"))) }
                        p.body { (s(c, "body")) }
                    }
                }
            }
            form.comment-box method="post" autocomplete="off" action="/op/add_comment" {
                (hidden(key, here))
                label for="f-comment" { "Add a comment" }
                textarea #f-comment name="body" rows="3" {}
                button type="submit" { "Comment" }
            }
        }
    }
}

fn details(state: &Value, i: &Value, here: &str) -> Markup {
    let key = s(i, "key");
    let project = s(i, "projectId");
    html! {
        form.details method="post" autocomplete="off" action="/op/update_details" {
            (hidden(key, here))
            (radios("Status", "status", &plain(&statuses(state)), s(i, "status")))
            (radios("Priority", "priority", &plain(PRIORITIES), s(i, "priority")))
            (radios("Type", "type", &plain(TYPES), s(i, "type")))
            (people_picker(state, "Assignee", "assignee", opt(i, "assignee"), Some("Unassigned")))
            (sprint_picker(state, &[project], opt(i, "sprintId")))
            div.field {
                label for="f-points" { "Story points" }
                input #f-points type="text" inputmode="decimal" name="storyPoints" value=(points(i)) size="4";
            }
            button type="submit" { "Save details" }
        }
    }
}

fn label_panel(state: &Value, i: &Value, here: &str) -> Markup {
    let key = s(i, "key");
    let mine = labels(i);
    html! {
        section.labels aria-labelledby="h-labels" {
            h2 #h-labels { "Labels" }
            ul.label-list {
                @for l in &mine {
                    li.label-chip data-label=(l) {
                        (l)
                        form.inline method="post" action="/op/remove_label" {
                            (hidden(key, here))
                            input type="hidden" name="label" value=(l);
                            button.quiet type="submit" aria-label={ "Remove label " (l) } { "×" }
                        }
                    }
                }
                @if mine.is_empty() { li.empty { "None" } }
            }
            form.add-label method="post" autocomplete="off" action="/op/add_label" {
                (hidden(key, here))
                label for="f-label" { "New label" }
                input #f-label type="text" name="label" list="known-labels" autocomplete="off";
                datalist #known-labels { @for l in known_labels(state) { option value=(l) {} } }
                button type="submit" { "Add label" }
            }
        }
    }
}

/// `/issue/<key>`.
pub fn page(state: &Value, ctx: &Ctx, key: &str) -> Option<(String, Markup)> {
    let i = issue(state, key)?;
    let here = format!("/issue/{key}");
    let project = s(i, "projectId");
    let pname = by_id(arr(state, "projects"), project)
        .map(|p| s(p, "name"))
        .unwrap_or(project);
    let summary = s(i, "summary");
    let content = html! {
        header.head {
            nav.crumbs aria-label="Breadcrumb" { a href={ "/p/" (project) "/board" } { (pname) } " / " span.key { (key) } }
            h1 { (summary) }
        }
        div.issue-page {
            div.issue-main {
                form.text method="post" autocomplete="off" action="/op/update_issue" {
                    (hidden(key, &here))
                    label for="f-summary" { "Summary" }
                    input #f-summary type="text" name="summary" value=(summary) required;
                    label for="f-description" { "Description" }
                    textarea #f-description name="description" rows="5" { (s(i, "description")) }
                    button type="submit" { "Save summary and description" }
                }
                (comments(state, ctx, i, &here))
            }
            aside.issue-side aria-label="Details" {
                (details(state, i, &here))
                (label_panel(state, i, &here))
                dl.facts {
                    dt { "Reporter" } dd { (user_name(state, opt(i, "reporter"))) }
                    dt { "Created" } dd { (when(ctx, s(i, "created"))) }
                    dt { "Updated" } dd { (when(ctx, s(i, "updated"))) }
                }
            }
        }
    };
    Some((
        format!("{key} {summary} · issue tracker"),
        frame(state, project, "", &format!("{key} {summary}"), content),
    ))
}
