//! The messenger window: channel sidebar, the conversation (header, messages with reactions,
//! composer) and the thread pane.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{
    arr, b, conversation, dm_title, me, members, messages, s, user_name, Conversation,
};
use super::ops::EMOJI;
use crate::ui::clock::ts_time;
use crate::ui::page::back;
use crate::ui::Ctx;

/// The sidebar: workspace, profile link, channels (active, then archived), direct messages.
pub fn sidebar(state: &Value, active: &str) -> Markup {
    let ws = state.get("workspace").unwrap_or(&Value::Null);
    let channels = arr(state, "channels");
    let (archived, open): (Vec<&Value>, Vec<&Value>) =
        channels.iter().partition(|c| b(c, "isArchived"));
    let link = |c: &Value| {
        let id = s(c, "id");
        html! {
            li {
                a.current[id == active] href={ "/c/" (id) } aria-current=[(id == active).then_some("page")] {
                    span.sigil aria-hidden="true" { @if b(c, "isPrivate") { "◆" } @else { "#" } }
                    (s(c, "name"))
                }
            }
        }
    };
    html! {
        nav.sidebar aria-label="Workspace" {
            div.workspace { (s(ws, "name")) }
            a.me href="/profile" title="Edit your profile" { (user_name(state, me(state))) }
            div.section {
                h2 { "Channels" }
                a.add href="/new-channel" { "+ New channel" }
            }
            ul.channels aria-label="Channels" { @for c in &open { (link(c)) } }
            @if !archived.is_empty() {
                h2 { "Archived" }
                ul.channels.archived aria-label="Archived channels" { @for c in &archived { (link(c)) } }
            }
            h2 { "Direct messages" }
            ul.channels aria-label="Direct messages" {
                @for dm in arr(state, "dms") {
                    li {
                        a.current[s(dm, "id") == active] href={ "/c/" (s(dm, "id")) } { (dm_title(state, dm)) }
                    }
                }
            }
        }
    }
}

fn time_of(ctx: &Ctx, ts: &str) -> Markup {
    match ts_time(ts) {
        Some(t) => {
            html! { time datetime=(t.format("%Y-%m-%dT%H:%M:%SZ")) { (ctx.today.label(t)) } }
        }
        None => html! {},
    }
}

/// The character of a Slack short name (`thumbsup` → 👍), for the names the picker offers.
pub fn glyph(name: &str) -> Option<&'static str> {
    Some(match name {
        "thumbsup" | "+1" => "\u{1F44D}",
        "white_check_mark" => "\u{2705}",
        "eyes" => "\u{1F440}",
        "tada" => "\u{1F389}",
        "heart" => "\u{2764}\u{FE0F}",
        "rocket" => "\u{1F680}",
        "raised_hands" => "\u{1F64C}",
        "pray" => "\u{1F64F}",
        "fire" => "\u{1F525}",
        "joy" => "\u{1F602}",
        "thinking_face" => "\u{1F914}",
        "100" => "\u{1F4AF}",
        _ => return None,
    })
}

/// An emoji as people see it: its character (its `:name:` as the tooltip and accessible name), or
/// the `:name:` text for a name without a known character.
fn emoji(name: &str) -> Markup {
    let label = format!(":{name}:");
    match glyph(name) {
        Some(g) => html! { span.emoji role="img" aria-label=(label) title=(label) { (g) } },
        None => html! { span.emoji { (label) } },
    }
}

fn reactions(state: &Value, conv: &str, m: &Value, here: &str) -> Markup {
    let me = me(state);
    let mid = s(m, "id");
    html! {
        div.reactions {
            @for r in arr(m, "reactions") {
                @let users: Vec<&str> = arr(r, "users").iter().filter_map(Value::as_str).collect();
                @let mine = users.contains(&me);
                form.inline method="post" action="/op/toggle_reaction" {
                    (back(here))
                    input type="hidden" name="channel" value=(conv);
                    input type="hidden" name="message" value=(mid);
                    input type="hidden" name="emoji" value=(s(r, "emoji"));
                    button.reaction.mine[mine] type="submit" aria-pressed=(mine) data-emoji=(s(r, "emoji"))
                        title=(users.iter().map(|u| user_name(state, u)).collect::<Vec<_>>().join(", ")) {
                        (emoji(s(r, "emoji"))) " " (users.len())
                    }
                }
            }
            details.picker {
                summary aria-label="Add reaction" { "+ React" }
                form.emoji method="post" action="/op/toggle_reaction" {
                    (back(here))
                    input type="hidden" name="channel" value=(conv);
                    input type="hidden" name="message" value=(mid);
                    @for e in EMOJI {
                        button type="submit" name="emoji" value=(e) data-emoji=(e) { (emoji(e)) }
                    }
                }
            }
        }
    }
}

fn message(state: &Value, ctx: &Ctx, conv: &str, m: &Value, here: &str, in_thread: bool) -> Markup {
    let mid = s(m, "id");
    let replies = m.get("replyCount").and_then(Value::as_i64).unwrap_or(0);
    html! {
        li.message id={ "m-" (mid) } data-message-id=(mid) {
            div.meta {
                span.author { (user_name(state, s(m, "userId"))) }
                " " (time_of(ctx, s(m, "ts")))
                @if b(m, "edited") { span.edited { " (edited)" } }
            }
            p.text { (s(m, "text")) }
            @for a in arr(m, "attachments") {
                div.attachment { "Attachment: " (s(a, "name")) }
            }
            (reactions(state, conv, m, here))
            @if !in_thread {
                a.replies href={ "/c/" (conv) "/thread/" (mid) } {
                    @if replies > 0 { (replies) @if replies == 1 { " reply" } @else { " replies" } }
                    @else { "Reply in thread" }
                }
            }
        }
    }
}

fn composer(
    conv: &str,
    here: &str,
    op: &str,
    parent: Option<&str>,
    label: &str,
    button: &str,
) -> Markup {
    html! {
        form.composer method="post" action={ "/op/" (op) } {
            (back(here))
            input type="hidden" name="channel" value=(conv);
            @if let Some(p) = parent { input type="hidden" name="parent" value=(p); }
            textarea name="text" rows="2" aria-label=(label) placeholder=(label) {}
            button type="submit" { (button) }
        }
    }
}

/// A conversation page, with the thread of `thread` open beside it when given.
pub fn page(state: &Value, ctx: &Ctx, id: &str, thread: Option<&str>) -> Option<(String, Markup)> {
    let conv = conversation(state, id)?;
    let here = match thread {
        Some(t) => format!("/c/{id}/thread/{t}"),
        None => format!("/c/{id}"),
    };
    let (title, topic, archived, is_channel) = match conv {
        Conversation::Channel(c) => (
            format!("#{}", s(c, "name")),
            s(c, "topic").to_string(),
            b(c, "isArchived"),
            true,
        ),
        Conversation::Dm(d) => (dm_title(state, d), String::new(), false, false),
    };
    let all = messages(state, id);
    let top: Vec<&Value> = all
        .iter()
        .filter(|m| m.get("threadTs").is_none_or(Value::is_null))
        .collect();
    let parent = match thread {
        Some(t) => Some(all.iter().find(|m| s(m, "id") == t)?),
        None => None,
    };
    let body = html! {
        div.app {
            (sidebar(state, id))
            main.conversation aria-label=(title) {
                header.head {
                    h1 { (title) }
                    @if !topic.is_empty() { p.topic { (topic) } }
                    @if is_channel {
                        @if let Conversation::Channel(c) = conv {
                            span.count { (members(c).len()) " members" }
                        }
                        a.details href={ "/c/" (id) "/details" } { "Channel details" }
                    }
                }
                ol.messages aria-label="Messages" {
                    @for m in &top { (message(state, ctx, id, m, &here, false)) }
                }
                @if archived {
                    div.archived role="note" {
                        "This channel is archived. "
                        form.inline method="post" action="/op/unarchive_channel" {
                            (back(&here))
                            input type="hidden" name="channel" value=(id);
                            button type="submit" { "Unarchive channel" }
                        }
                    }
                } @else {
                    (composer(id, &here, "send_message", None, &format!("Message {title}"), "Send"))
                }
            }
            @if let Some(p) = parent {
                @let pts = s(p, "ts");
                aside.thread aria-label="Thread" {
                    header.head {
                        h2 { "Thread" }
                        a.close href={ "/c/" (id) } { "Close thread" }
                    }
                    ol.messages aria-label="Thread messages" {
                        (message(state, ctx, id, p, &here, true))
                        @for r in all.iter().filter(|m| m.get("threadTs").and_then(Value::as_str) == Some(pts)) {
                            (message(state, ctx, id, r, &here, true))
                        }
                    }
                    @if !archived {
                        (composer(id, &here, "reply_in_thread", Some(s(p, "id")), "Reply in thread", "Send reply"))
                    }
                }
            }
        }
    };
    Some((format!("{title} · team chat"), body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reactions_show_emoji_characters_not_their_names() {
        for name in EMOJI {
            assert!(glyph(name).is_some(), "no character for :{name}:");
        }
        let state = json!({"currentUser": "U01", "users": [{"id": "U01", "displayName": "Jo"}]});
        let m = json!({"id": "M1", "reactions": [{"emoji": "thumbsup", "users": ["U01"]},
                                                 {"emoji": "custom_party", "users": ["U01"]}]});
        let html = reactions(&state, "C01", &m, "/c/C01").into_string();
        assert!(html.contains("\u{1F44D}</span> 1"), "{html}");
        assert!(html.contains(r#"aria-label=":thumbsup:""#), "{html}");
        assert!(!html.contains(">:thumbsup:"), "the name as text: {html}");
        // A name without a known character stays readable as its name.
        assert!(html.contains(">:custom_party:<"), "{html}");
        // The picker offers characters too.
        assert!(
            html.contains("\u{1F389}") && !html.contains(">:tada:<"),
            "{html}"
        );
    }
}
