//! The reading page of one message: the bulk toolbar acting on it, reply / reply all / forward,
//! its star, headers, labels (each removable), body and attachments. Opening a message changes
//! nothing: a page view is never a write (read state changes only through "Mark read").

use maud::{html, Markup};
use serde_json::Value;

use super::list::{chips, star_button, toolbar};
use super::model::{arr, by_id, date, folder_name, labels_of, s, sender, strings};
use super::sidebar::sidebar;
use crate::ui::page::back;
use crate::ui::Ctx;

/// `/m/<id>`.
pub fn page(state: &Value, ctx: &Ctx, id: &str) -> Option<(String, Markup)> {
    let m = by_id(arr(state, "messages"), id)?;
    let here = format!("/m/{id}");
    let folder = s(m, "folder");
    let subject = if s(m, "subject").is_empty() {
        "(no subject)"
    } else {
        s(m, "subject")
    };
    let from = m.get("from").unwrap_or(&Value::Null);
    let body = html! {
        div.app {
            (sidebar(state, &format!("/f/{folder}")))
            main.reading aria-label=(subject) data-message-id=(id) {
                header.head {
                    a.back href={ "/f/" (folder) } { "Back to " (folder_name(state, folder)) }
                    nav.replies aria-label="Respond" {
                        a.button href={ "/compose/reply/" (id) } { "Reply" }
                        a.button href={ "/compose/reply-all/" (id) } { "Reply all" }
                        a.button href={ "/compose/forward/" (id) } { "Forward" }
                    }
                }
                (toolbar(state, Some(folder), &here, Some(id)))
                article.message {
                    div.title {
                        h1 { (subject) }
                        (star_button(m, &here))
                    }
                    dl.headers {
                        dt { "From" } dd.from { (sender(m)) " <" (s(from, "email")) ">" }
                        dt { "To" } dd.to { (strings(m, "to").join(", ")) }
                        @if !strings(m, "cc").is_empty() { dt { "Cc" } dd.cc { (strings(m, "cc").join(", ")) } }
                        dt { "Date" }
                        dd { @if let Some(t) = date(m, "date") { time datetime=(s(m, "date")) { (ctx.today.label(t)) } } }
                        dt { "Folder" } dd.folder { (folder_name(state, folder)) }
                    }
                    @if !labels_of(m).is_empty() {
                        div.labels aria-label="Labels" {
                            @for l in labels_of(m) {
                                form.inline method="post" action="/op/bulk" {
                                    (back(&here))
                                    input type="hidden" name="message" value=(id);
                                    (chips(state, &serde_json::json!({"labels": [l]})))
                                    @let name = s(by_id(arr(state, "labels"), l).unwrap_or(&Value::Null), "name");
                                    button.quiet type="submit" name="unlabel" value=(l) aria-label={ "Remove label " (name) } { "×" }
                                }
                            }
                        }
                    }
                    div.body { (s(m, "body")) }
                    @if !arr(m, "attachments").is_empty() {
                        ul.attachments aria-label="Attachments" {
                            @for a in arr(m, "attachments") {
                                li { "📎 " (s(a, "name")) " " span.size { (a.get("size").and_then(Value::as_u64).unwrap_or(0) / 1024) " KB" } }
                            }
                        }
                    }
                }
            }
        }
    };
    Some((format!("{subject} · Mail"), body))
}
