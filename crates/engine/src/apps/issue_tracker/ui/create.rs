//! The create-issue form of a project (`/p/<id>/new-issue`): type, summary, description,
//! priority, assignee, sprint, story points and labels; links switch to another project's form.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, known_labels, s, PRIORITIES, TYPES};
use super::shell::frame;
use super::widgets::{people_picker, plain, radios, sprint_picker};
use crate::ui::page::back;

/// `/p/<id>/new-issue`.
pub fn new_issue(state: &Value, project: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "projects"), project)?;
    let here = format!("/p/{project}/new-issue");
    let name = s(p, "name");
    let content = html! {
        header.head { h1 { "Create issue in " (name) } }
        div.scroll {
            nav.switch aria-label="Project" {
                "Project: " strong { (name) " (" (s(p, "key")) ")" }
                @for other in arr(state, "projects").iter().filter(|o| s(o, "id") != project) {
                    " · " a href={ "/p/" (s(other, "id")) "/new-issue" } { "Create in " (s(other, "name")) }
                }
            }
            form.create method="post" autocomplete="off" action="/op/create_issue" {
                (back(&here))
                input type="hidden" name="project" value=(project);
                (radios("Type", "type", &plain(TYPES), "task"))
                label for="f-summary" { "Summary" }
                input #f-summary type="text" name="summary" required;
                label for="f-description" { "Description" }
                textarea #f-description name="description" rows="4" {}
                (radios("Priority", "priority", &plain(PRIORITIES), "Medium"))
                (people_picker(state, "Assignee", "assignee", None, Some("Unassigned")))
                (sprint_picker(state, &[project], None))
                div.field {
                    label for="f-points" { "Story points" }
                    input #f-points type="text" inputmode="decimal" name="storyPoints" size="4";
                }
                fieldset.labels {
                    legend { "Labels" }
                    @for l in known_labels(state) {
                        label.choice { input type="checkbox" name="label" value=(l); (l) }
                    }
                    label for="f-more" { "More labels (comma-separated)" }
                    input #f-more type="text" name="moreLabels";
                }
                button type="submit" { "Create issue" }
            }
        }
    };
    Some((
        format!("Create issue · {name} · issue tracker"),
        frame(state, project, "", "Create issue", content),
    ))
}
