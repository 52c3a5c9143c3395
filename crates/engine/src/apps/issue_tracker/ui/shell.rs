//! The frame every tracker page shares: the project sidebar (projects, the current project's
//! views, create issue) beside the page's main area.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, me, s, user_name};

/// The views of a project, as (path segment, label).
pub const VIEWS: &[(&str, &str)] = &[
    ("board", "Board"),
    ("backlog", "Backlog"),
    ("list", "List"),
    ("settings", "Settings"),
];

/// The sidebar, with project `project` open and `view` (a [`VIEWS`] segment) marked current.
pub fn sidebar(state: &Value, project: &str, view: &str) -> Markup {
    let create = if project.is_empty() {
        super::model::first_project(state).unwrap_or_default()
    } else {
        project
    };
    html! {
        nav.sidebar aria-label="Projects" {
            div.workspace { "Issue tracker" }
            div.me title="Signed in" { (user_name(state, Some(me(state)))) }
            a.create href={ "/p/" (create) "/new-issue" } { "+ Create issue" }
            h2 { "Projects" }
            ul.projects {
                @for p in arr(state, "projects") {
                    @let id = s(p, "id");
                    li {
                        a.project.current[id == project] href={ "/p/" (id) "/board" } data-pkey=(s(p, "key"))
                            aria-current=[(id == project && view.is_empty()).then_some("page")] {
                            span.pkey { (s(p, "key")) } " " (s(p, "name"))
                        }
                        @if id == project {
                            ul.views aria-label={ (s(p, "name")) " views" } {
                                @for (seg, label) in VIEWS {
                                    li {
                                        a.current[*seg == view] href={ "/p/" (id) "/" (seg) }
                                            aria-current=[(*seg == view).then_some("page")] { (label) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            h2 { "Planning" }
            a.sprints.current[view == "sprints"] href="/sprints" { "All sprints" }
        }
    }
}

/// A page: the sidebar and a main area labelled `label` holding `content`.
pub fn frame(state: &Value, project: &str, view: &str, label: &str, content: Markup) -> Markup {
    html! {
        div.app {
            (sidebar(state, project, view))
            main aria-label=(label) { (content) }
        }
    }
}
