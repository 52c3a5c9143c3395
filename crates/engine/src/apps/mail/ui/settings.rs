//! Mailbox settings: labels (create, rename, recolour, delete), folders (create, rename, delete
//! a user folder) and filters (create, delete).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, b, by_id, folder_name, s, swatch, SYSTEM};
use super::sidebar::sidebar;
use crate::ui::page::back;

fn shell(state: &Value, here: &str, title: &str, inner: Markup) -> (String, Markup) {
    let body = html! {
        div.app {
            (sidebar(state, here))
            main.settings aria-label=(title) {
                header.head { h1 { (title) } }
                div.scroll { (inner) }
            }
        }
    };
    (format!("{title} · Mail"), body)
}

fn hidden(name: &str, value: &str, here: &str) -> Markup {
    html! { (back(here)) input type="hidden" name=(name) value=(value); }
}

/// `/labels`.
pub fn labels(state: &Value) -> (String, Markup) {
    let here = "/labels";
    shell(
        state,
        here,
        "Labels",
        html! {
            ul.rows {
                @for l in arr(state, "labels") {
                    @let (id, name) = (s(l, "id"), s(l, "name"));
                    li data-label=(id) {
                        span.swatch style=(swatch(l)) aria-hidden="true" {}
                        form.inline method="post" action="/op/update_label" autocomplete="off" {
                            (hidden("label", id, here))
                            input type="text" name="name" value=(name) aria-label={ "Name of label " (name) };
                            input.colour type="text" name="color" value=(s(l, "color")) aria-label={ "Colour of label " (name) };
                            button type="submit" aria-label={ "Save label " (name) } { "Save" }
                        }
                        form.inline method="post" action="/op/delete_label" {
                            (hidden("label", id, here))
                            button.quiet.danger type="submit" aria-label={ "Delete label " (name) } { "Delete" }
                        }
                    }
                }
            }
            section aria-labelledby="s-new-label" {
                h2 #s-new-label { "New label" }
                form method="post" action="/op/create_label" autocomplete="off" {
                    (back(here))
                    label for="l-name" { "New label name" }
                    input #l-name type="text" name="name" required;
                    label for="l-colour" { "New label colour" }
                    input #l-colour type="text" name="color" value="#4a90d9" placeholder="#rrggbb";
                    div.actions { button type="submit" { "Create label" } }
                }
            }
        },
    )
}

/// `/folders`.
pub fn folders(state: &Value) -> (String, Markup) {
    let here = "/folders";
    let (system, user): (Vec<&Value>, Vec<&Value>) = arr(state, "folders")
        .iter()
        .partition(|f| b(f, "system") || SYSTEM.contains(&s(f, "id")));
    shell(
        state,
        here,
        "Folders",
        html! {
            p { "System folders: " (system.iter().map(|f| s(f, "name")).collect::<Vec<_>>().join(", ")) "." }
            ul.rows {
                @for f in &user {
                    @let (id, name) = (s(f, "id"), s(f, "name"));
                    li data-folder=(id) {
                        form.inline method="post" action="/op/rename_folder" data-folder=(id) autocomplete="off" {
                            (hidden("folder", id, here))
                            input type="text" name="name" value=(name) aria-label={ "Name of folder " (name) };
                            button type="submit" aria-label={ "Rename folder " (name) } { "Rename" }
                        }
                        form.inline method="post" action="/op/delete_folder" {
                            (hidden("folder", id, here))
                            button.quiet.danger type="submit" aria-label={ "Delete folder " (name) } { "Delete" }
                        }
                    }
                }
            }
            section aria-labelledby="s-new-folder" {
                h2 #s-new-folder { "New folder" }
                form method="post" action="/op/create_folder" autocomplete="off" {
                    (back(here))
                    label for="n-folder" { "New folder name" }
                    input #n-folder type="text" name="name" required;
                    div.actions { button type="submit" { "Create folder" } }
                }
            }
        },
    )
}

fn describe(state: &Value, f: &Value) -> String {
    let m = f.get("match").unwrap_or(&Value::Null);
    let a = f.get("action").unwrap_or(&Value::Null);
    let mut when = Vec::new();
    if !s(m, "from").is_empty() {
        when.push(format!("from {}", s(m, "from")));
    }
    if !s(m, "subjectContains").is_empty() {
        when.push(format!("subject contains “{}”", s(m, "subjectContains")));
    }
    let mut then = Vec::new();
    if !s(a, "label").is_empty() {
        let l = by_id(arr(state, "labels"), s(a, "label")).unwrap_or(&Value::Null);
        then.push(format!("label {}", s(l, "name")));
    }
    if !s(a, "folder").is_empty() {
        then.push(format!("move to {}", folder_name(state, s(a, "folder"))));
    }
    if b(a, "markRead") {
        then.push("mark read".into());
    }
    format!("Messages {} → {}", when.join(" and "), then.join(", "))
}

/// `/filters`.
pub fn filters(state: &Value) -> (String, Markup) {
    let here = "/filters";
    let targets: Vec<&Value> = arr(state, "folders")
        .iter()
        .filter(|f| !matches!(s(f, "id"), "inbox" | "sent" | "drafts"))
        .collect();
    shell(
        state,
        here,
        "Filters",
        html! {
            ul.rows {
                @for f in arr(state, "filters") {
                    li data-filter=(s(f, "id")) {
                        span { (describe(state, f)) }
                        form.inline method="post" action="/op/delete_filter" {
                            (hidden("filter", s(f, "id"), here))
                            button.quiet.danger type="submit" aria-label={ "Delete filter " (s(f, "id")) } { "Delete" }
                        }
                    }
                }
            }
            section aria-labelledby="s-new-filter" {
                h2 #s-new-filter { "New filter" }
                form method="post" action="/op/create_filter" autocomplete="off" {
                    (back(here))
                    label for="r-from" { "From" }
                    input #r-from type="text" name="from" placeholder="sender@example.com";
                    label for="r-subject" { "Subject contains" }
                    input #r-subject type="text" name="subject";
                    fieldset {
                        legend { "Apply label" }
                        label.check { input type="radio" name="label" value="" checked; "No label" }
                        @for l in arr(state, "labels") {
                            label.check { input type="radio" name="label" value=(s(l, "id")); (s(l, "name")) }
                        }
                    }
                    fieldset {
                        legend { "Move to folder" }
                        label.check { input type="radio" name="folder" value="" checked; "Leave in Inbox" }
                        @for f in &targets {
                            label.check { input type="radio" name="folder" value=(s(f, "id")); (s(f, "name")) }
                        }
                    }
                    label.check { input type="checkbox" name="markRead" value="true"; "Mark as read" }
                    div.actions { button type="submit" { "Create filter" } }
                }
            }
        },
    )
}
