//! The compose window: a new message, a reply, a reply to all, a forward, or an existing draft.
//! One form (operation `compose`) with Send, Save draft and (for a draft) Discard; recipients
//! are typed as comma-separated addresses (no suggestion pop-up: it would cover the fields below).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, date, me, s, sender, strings};
use super::sidebar::sidebar;
use crate::ui::page::back;
use crate::ui::Ctx;

/// What the compose window starts from.
pub enum Start<'a> {
    /// A blank message.
    New,
    /// A reply to the sender (`all`: and to every other recipient).
    Reply(&'a str, bool),
    /// A forward of a message.
    Forward(&'a str),
    /// An existing draft.
    Draft(&'a str),
}

/// Prefilled fields of the form.
#[derive(Default)]
struct Fields {
    to: Vec<String>,
    cc: Vec<String>,
    subject: String,
    body: String,
    draft: Option<String>,
    in_reply_to: Option<String>,
    forward_of: Option<String>,
}

fn prefixed(prefix: &str, subject: &str) -> String {
    let lower = subject.to_lowercase();
    if lower.starts_with(&prefix.to_lowercase()) {
        subject.to_string()
    } else {
        format!("{prefix} {subject}")
    }
}

fn quoted(ctx: &Ctx, m: &Value) -> String {
    let when = date(m, "date")
        .map(|t| ctx.today.label(t))
        .unwrap_or_default();
    let lines: Vec<String> = s(m, "body").lines().map(|l| format!("> {l}")).collect();
    format!("\n\nOn {when}, {} wrote:\n{}", sender(m), lines.join("\n"))
}

fn fields(state: &Value, ctx: &Ctx, start: &Start<'_>) -> Option<Fields> {
    let me = me(state).to_string();
    let message = |id: &str| by_id(arr(state, "messages"), id);
    let addr = |m: &Value| s(m.get("from").unwrap_or(&Value::Null), "email").to_string();
    Some(match start {
        Start::New => Fields::default(),
        Start::Reply(id, all) => {
            let m = message(id)?;
            let mut to: Vec<String> = if addr(m) == me || s(m, "folder") == "sent" {
                strings(m, "to").iter().map(|a| a.to_string()).collect()
            } else {
                vec![addr(m)]
            };
            let mut cc = Vec::new();
            if *all {
                for a in strings(m, "to") {
                    if a != me && !to.iter().any(|t| t == a) {
                        to.push(a.to_string());
                    }
                }
                cc = strings(m, "cc")
                    .into_iter()
                    .filter(|a| *a != me && !to.iter().any(|t| t == a))
                    .map(str::to_string)
                    .collect();
            }
            Fields {
                to,
                cc,
                subject: prefixed("Re:", s(m, "subject")),
                body: quoted(ctx, m),
                in_reply_to: Some(id.to_string()),
                ..Fields::default()
            }
        }
        Start::Forward(id) => {
            let m = message(id)?;
            let from = m.get("from").unwrap_or(&Value::Null);
            Fields {
                subject: prefixed("Fwd:", s(m, "subject")),
                body: format!(
                    "\n\n---------- Forwarded message ----------\nFrom: {} <{}>\nSubject: {}\nTo: {}\n\n{}",
                    sender(m),
                    s(from, "email"),
                    s(m, "subject"),
                    strings(m, "to").join(", "),
                    s(m, "body")
                ),
                forward_of: Some(id.to_string()),
                ..Fields::default()
            }
        }
        Start::Draft(id) => {
            let d = by_id(arr(state, "drafts"), id)?;
            let list =
                |k: &str| -> Vec<String> { strings(d, k).iter().map(|a| a.to_string()).collect() };
            Fields {
                to: list("to"),
                cc: list("cc"),
                subject: s(d, "subject").into(),
                body: s(d, "body").into(),
                draft: Some(id.to_string()),
                in_reply_to: d
                    .get("inReplyTo")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                ..Fields::default()
            }
        }
    })
}

/// The compose page at `path` starting from `start`.
pub fn page(state: &Value, ctx: &Ctx, path: &str, start: Start<'_>) -> Option<(String, Markup)> {
    let f = fields(state, ctx, &start)?;
    let title = match start {
        Start::New => "New message",
        Start::Reply(_, false) => "Reply",
        Start::Reply(_, true) => "Reply all",
        Start::Forward(_) => "Forward",
        Start::Draft(_) => "Draft",
    };
    let hidden = |name: &str, v: &Option<String>| match v {
        Some(v) => html! { input type="hidden" name=(name) value=(v); },
        None => html! {},
    };
    let body = html! {
        div.app {
            (sidebar(state, if f.draft.is_some() { "/f/drafts" } else { "" }))
            main.compose aria-label=(title) {
                header.head { h1 { (title) } }
                form.compose method="post" action="/op/compose" autocomplete="off" {
                    (back(path))
                    (hidden("draft", &f.draft))
                    (hidden("in_reply_to", &f.in_reply_to))
                    (hidden("forward_of", &f.forward_of))
                    label for="c-to" { "To" }
                    input #c-to type="text" name="to" value=(f.to.join(", ")) autocomplete="off";
                    label for="c-cc" { "Cc" }
                    input #c-cc type="text" name="cc" value=(f.cc.join(", ")) autocomplete="off";
                    label for="c-subject" { "Subject" }
                    input #c-subject type="text" name="subject" value=(f.subject);
                    label for="c-body" { "Body" }
                    // The parser drops one newline right after <textarea>: keep a body that
                    // starts with one intact.
                    textarea #c-body name="body" rows="14" { "\n" (f.body) }
                    div.actions {
                        button type="submit" name="do" value="send" { "Send" }
                        button.quiet type="submit" name="do" value="save" { "Save draft" }
                        @if f.draft.is_some() {
                            button.quiet.danger type="submit" name="do" value="discard" { "Discard draft" }
                        }
                    }
                }
            }
        }
    };
    Some((format!("{title} · Mail"), body))
}
