//! The mail sidebar: compose, folders with unread counts, every message, labels, and the
//! contacts and settings pages.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, b, folder_name, s, swatch, unread, SYSTEM};

/// The sidebar, with the link to `active` (a page path) marked current.
pub fn sidebar(state: &Value, active: &str) -> Markup {
    let account = state.get("account").unwrap_or(&Value::Null);
    let user_folders: Vec<&Value> = arr(state, "folders")
        .iter()
        .filter(|f| !b(f, "system") && !SYSTEM.contains(&s(f, "id")))
        .collect();
    let link = |href: String, text: &str, count: usize| {
        let current = href == active;
        html! {
            li {
                a.current[current] href=(href) aria-current=[current.then_some("page")] {
                    span.name { (text) }
                    @if count > 0 { " " span.count { (count) } }
                }
            }
        }
    };
    html! {
        nav.sidebar aria-label="Mailbox" {
            div.account { (s(account, "name")) div.email { (s(account, "email")) } }
            a.compose href="/compose" { "Compose" }
            ul.folders aria-label="Folders" {
                @for id in SYSTEM {
                    @let n = if matches!(*id, "inbox" | "spam") { unread(state, id) } else { 0 };
                    (link(format!("/f/{id}"), folder_name(state, id), n))
                }
                @for f in &user_folders {
                    (link(format!("/f/{}", s(f, "id")), s(f, "name"), unread(state, s(f, "id"))))
                }
                (link("/all".into(), "All messages", 0))
            }
            h2 { "Labels" }
            ul.labels aria-label="Labels" {
                @for l in arr(state, "labels") {
                    li {
                        @let href = format!("/l/{}", s(l, "id"));
                        a.current[href == active] href=(href) {
                            span.swatch style=(swatch(l)) aria-hidden="true" {}
                            (s(l, "name"))
                        }
                    }
                }
            }
            h2 { "Manage" }
            ul.manage {
                (link("/contacts".into(), "Contacts", 0))
                (link("/labels".into(), "Labels", 0))
                (link("/folders".into(), "Folders", 0))
                (link("/filters".into(), "Filters", 0))
            }
        }
    }
}
