//! A message list (a folder, a label or every message): the bulk toolbar (archive, delete,
//! spam, read, star, move to, label) acting on the ticked rows, and one row per message with
//! its star, sender, subject, snippet, labels and date. Unread rows are bold.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{
    arr, b, by_id, date, folder_name, labels_of, messages, s, sender, swatch, View,
};
use super::sidebar::sidebar;
use crate::ui::page::back;
use crate::ui::Ctx;

/// The id of the bulk form the row checkboxes belong to.
pub const BULK: &str = "bulk";

/// The toolbar of bulk actions for messages in `folder` (`None` = mixed folders). Its buttons
/// submit form `bulk`; rows (or a hidden field on a message page) name the messages.
pub fn toolbar(state: &Value, folder: Option<&str>, here: &str, hidden: Option<&str>) -> Markup {
    let act = |value: &str, text: &str| {
        html! { button type="submit" name="do" value=(value) { (text) } }
    };
    let folders: Vec<&Value> = arr(state, "folders")
        .iter()
        .filter(|f| Some(s(f, "id")) != folder && !matches!(s(f, "id"), "sent" | "drafts"))
        .collect();
    html! {
        form.toolbar id=(BULK) method="post" action="/op/bulk" {
            (back(here))
            @if let Some(id) = hidden { input type="hidden" name="message" value=(id); }
            @if folder != Some("archive") { (act("archive", "Archive")) }
            @if folder == Some("trash") { (act("purge", "Delete forever")) } @else { (act("delete", "Delete")) }
            @if folder == Some("spam") { (act("not_spam", "Not spam")) } @else { (act("spam", "Report spam")) }
            (act("read", "Mark read"))
            (act("unread", "Mark unread"))
            (act("star", "Star"))
            (act("unstar", "Unstar"))
            details.menu.move {
                summary { "Move to…" }
                div.items {
                    @for f in &folders {
                        button type="submit" name="move" value=(s(f, "id")) { (s(f, "name")) }
                    }
                }
            }
            details.menu.label {
                summary { "Add label…" }
                div.items {
                    @for l in arr(state, "labels") {
                        button type="submit" name="label" value=(s(l, "id")) {
                            span.swatch style=(swatch(l)) aria-hidden="true" {} (s(l, "name"))
                        }
                    }
                }
            }
            details.menu.unlabel {
                summary { "Remove label…" }
                div.items {
                    @for l in arr(state, "labels") {
                        button type="submit" name="unlabel" value=(s(l, "id")) { (s(l, "name")) }
                    }
                }
            }
        }
    }
}

/// Label chips of a message.
pub fn chips(state: &Value, m: &Value) -> Markup {
    html! {
        @for id in labels_of(m) {
            @let l = by_id(arr(state, "labels"), id).unwrap_or(&Value::Null);
            span.chip data-label=(id) { span.swatch style=(swatch(l)) aria-hidden="true" {} (if s(l, "name").is_empty() { id } else { s(l, "name") }) }
        }
    }
}

/// The form that stars or unstars one message (a set, never a toggle: idempotent).
pub fn star_button(m: &Value, here: &str) -> Markup {
    let starred = b(m, "isStarred");
    let subject = s(m, "subject");
    html! {
        form.inline.star method="post" action="/op/star" {
            (back(here))
            input type="hidden" name="message" value=(s(m, "id"));
            input type="hidden" name="starred" value=(!starred);
            button.star.on[starred] type="submit" aria-pressed=(starred)
                aria-label={ @if starred { "Unstar " } @else { "Star " } (subject) } {
                @if starred { "★" } @else { "☆" }
            }
        }
    }
}

fn row(state: &Value, ctx: &Ctx, m: &Value, here: &str, all: bool) -> Markup {
    let id = s(m, "id");
    let subject = s(m, "subject");
    let snippet: String = s(m, "body")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    html! {
        li.row.unread[!b(m, "isRead")].starred[b(m, "isStarred")] data-message-id=(id) {
            input type="checkbox" form=(BULK) name="message" value=(id) aria-label={ "Select " (subject) };
            (star_button(m, here))
            a.open href={ "/m/" (id) } data-subject=(subject) {
                span.from { (sender(m)) }
                span.subject { (if subject.is_empty() { "(no subject)" } else { subject }) }
                span.snippet { " — " (snippet) }
            }
            span.tags {
                @if all { span.chip.folder { (folder_name(state, s(m, "folder"))) } }
                (chips(state, m))
                @if !arr(m, "attachments").is_empty() { span.clip title="Has attachments" { "📎" } }
            }
            @if let Some(t) = date(m, "date") { time datetime=(s(m, "date")) { (ctx.today.label(t)) } }
        }
    }
}

fn drafts(state: &Value, ctx: &Ctx) -> Markup {
    html! {
        ol.list.drafts aria-label="Drafts" {
            @for d in arr(state, "drafts") {
                li.row data-draft-id=(s(d, "id")) {
                    a.open href={ "/drafts/" (s(d, "id")) } {
                        span.from { @let to = super::model::strings(d, "to"); @if to.is_empty() { "(no recipients)" } @else { (to.join(", ")) } }
                        span.subject { (if s(d, "subject").is_empty() { "(no subject)" } else { s(d, "subject") }) }
                    }
                    @if let Some(t) = date(d, "updatedAt") { time datetime=(s(d, "updatedAt")) { (ctx.today.label(t)) } }
                }
            }
        }
    }
}

/// A list page for `view`, or `None` for an unknown folder or label.
pub fn page(state: &Value, ctx: &Ctx, view: View<'_>) -> Option<(String, Markup)> {
    let title = match view {
        View::Folder(f) => {
            by_id(arr(state, "folders"), f)?;
            folder_name(state, f).to_string()
        }
        View::Label(l) => s(by_id(arr(state, "labels"), l)?, "name").to_string(),
        View::All => "All messages".into(),
    };
    let here = view.path();
    let list = messages(state, view);
    let folder = match view {
        View::Folder(f) => Some(f),
        _ => None,
    };
    let body = html! {
        div.app {
            (sidebar(state, &here))
            main.mailbox aria-label=(title) {
                header.head {
                    h1 { (title) }
                    span.count { (list.len()) " messages" }
                }
                (toolbar(state, folder, &here, None))
                div.scroll {
                    @if view == View::Folder("drafts") { (drafts(state, ctx)) }
                    @if list.is_empty() && view != View::Folder("drafts") {
                        p.empty { "No messages here." }
                    }
                    ol.list aria-label="Messages" {
                        @for m in &list { (row(state, ctx, m, &here, view == View::All)) }
                    }
                }
            }
        }
    };
    Some((format!("{title} · Mail"), body))
}
