//! The settings of a project (`/p/<id>/settings`): name, lead and description.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, opt, s};
use super::shell::frame;
use super::widgets::people_picker;
use crate::ui::page::back;

/// `/p/<id>/settings`.
pub fn settings(state: &Value, project: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "projects"), project)?;
    let here = format!("/p/{project}/settings");
    let name = s(p, "name");
    let content = html! {
        header.head { h1 { (name) " settings" } span.pkey { "Key " (s(p, "key")) } }
        div.scroll {
            form.project-form method="post" autocomplete="off" action="/op/update_project" {
                (back(&here))
                input type="hidden" name="project" value=(project);
                label for="f-name" { "Project name" }
                input #f-name type="text" name="name" value=(name) required;
                (people_picker(state, "Project lead", "lead", opt(p, "lead"), None))
                label for="f-description" { "Project description" }
                textarea #f-description name="description" rows="3" { (s(p, "description")) }
                button type="submit" { "Save project" }
            }
        }
    };
    Some((
        format!("{name} settings · issue tracker"),
        frame(
            state,
            project,
            "settings",
            &format!("{name} settings"),
            content,
        ),
    ))
}
