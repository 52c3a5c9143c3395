//! The semantic operations on messages and drafts: bulk actions on ticked messages (archive,
//! delete, spam, read, star, move, label), a message's star, and the compose form (send, save
//! or discard a draft). Every action is a set, never a toggle, so repeating it changes nothing.

use serde_json::{json, Value};

use super::model::{arr, by_id, folder_name, labels_of, s};
use super::records::{addresses, coll_mut, err, next_id, rec_mut, text_block};
use crate::ui::{Ctx, Done, FormData, OpError};

fn plural(n: usize) -> String {
    if n == 1 {
        "1 message".into()
    } else {
        format!("{n} messages")
    }
}

/// The bulk action of a submission: exactly one of `do`, `move`, `label`, `unlabel`.
enum Bulk {
    Folder(String),
    Flag(&'static str, bool),
    Label(String, bool),
    Purge,
}

fn bulk_action(form: &FormData, state: &Value) -> Result<Bulk, OpError> {
    if let Some(f) = form.get("move") {
        if by_id(arr(state, "folders"), f).is_none() {
            return err(format!("there is no folder {f:?}"));
        }
        if matches!(f, "sent" | "drafts") {
            return err(format!(
                "Messages cannot be moved into {}",
                folder_name(state, f)
            ));
        }
        return Ok(Bulk::Folder(f.into()));
    }
    for (field, add) in [("label", true), ("unlabel", false)] {
        if let Some(l) = form.get(field) {
            if by_id(arr(state, "labels"), l).is_none() {
                return err(format!("there is no label {l:?}"));
            }
            return Ok(Bulk::Label(l.into(), add));
        }
    }
    Ok(match form.required("do")? {
        "archive" => Bulk::Folder("archive".into()),
        "delete" => Bulk::Folder("trash".into()),
        "spam" => Bulk::Folder("spam".into()),
        "not_spam" => Bulk::Folder("inbox".into()),
        "read" => Bulk::Flag("isRead", true),
        "unread" => Bulk::Flag("isRead", false),
        "star" => Bulk::Flag("isStarred", true),
        "unstar" => Bulk::Flag("isStarred", false),
        "purge" => Bulk::Purge,
        other => return err(format!("unknown action {other:?}")),
    })
}

/// `bulk`: one action on every ticked `message`.
pub fn bulk(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let ids: Vec<String> = form.all("message").iter().map(|m| m.to_string()).collect();
    if ids.is_empty() {
        return err("Select at least one message first");
    }
    for id in &ids {
        if by_id(arr(state, "messages"), id).is_none() {
            return err(format!("there is no message {id:?}"));
        }
    }
    let n = plural(ids.len());
    let action = bulk_action(form, state)?;
    let label_name = |state: &Value, l: &str| {
        s(
            by_id(arr(state, "labels"), l).unwrap_or(&Value::Null),
            "name",
        )
        .to_string()
    };
    let message = match &action {
        Bulk::Folder(f) => format!("Moved {n} to {}", folder_name(&*state, f.as_str())),
        Bulk::Flag("isRead", on) => format!("Marked {n} {}", if *on { "read" } else { "unread" }),
        Bulk::Flag(_, on) => format!("{} {n}", if *on { "Starred" } else { "Unstarred" }),
        Bulk::Label(l, true) => format!("Labelled {n} {}", label_name(&*state, l.as_str())),
        Bulk::Label(l, false) => {
            format!("Removed label {} from {n}", label_name(&*state, l.as_str()))
        }
        Bulk::Purge => format!("Deleted {n} forever"),
    };
    let messages = coll_mut(state, "messages")?;
    if let Bulk::Purge = action {
        if let Some(m) = messages
            .iter()
            .find(|m| ids.iter().any(|i| i == s(m, "id")) && s(m, "folder") != "trash")
        {
            return err(format!(
                "Only messages in Trash can be deleted forever; {:?} is not in Trash",
                s(m, "subject")
            ));
        }
        messages.retain(|m| !ids.iter().any(|i| i == s(m, "id")));
        return Ok(Done {
            message,
            go: Some("/f/trash".into()),
        });
    }
    for m in messages.iter_mut() {
        if !ids.iter().any(|i| i == s(m, "id")) {
            continue;
        }
        let mut now: Vec<String> = labels_of(m).iter().map(|x| x.to_string()).collect();
        let Some(m) = m.as_object_mut() else {
            return err("a message record is not an object");
        };
        match &action {
            Bulk::Folder(f) => {
                m.insert("folder".into(), json!(f));
            }
            Bulk::Flag(field, on) => {
                m.insert((*field).into(), json!(on));
            }
            Bulk::Label(l, add) => {
                if *add && !now.contains(l) {
                    now.push(l.clone());
                }
                if !add {
                    now.retain(|x| x != l);
                }
                m.insert("labels".into(), json!(now));
            }
            Bulk::Purge => {}
        }
    }
    Ok(Done { message, go: None })
}

/// `star`: sets one message's star.
pub fn star(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("message", "The message")?.to_string();
    let on = form.required("starred")? == "true";
    let m = rec_mut(state, "messages", &id, "message")?;
    m.insert("isStarred".into(), json!(on));
    let what = if on { "Starred" } else { "Unstarred" };
    Ok(Done {
        message: format!(
            "{what} “{}”",
            m.get("subject").and_then(Value::as_str).unwrap_or("")
        ),
        go: None,
    })
}

/// `compose`: `do=send` sends (and removes the draft it came from), `save` keeps a draft,
/// `discard` deletes the draft.
pub fn compose(form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let draft = form
        .get("draft")
        .filter(|d| !d.is_empty())
        .map(str::to_string);
    if let Some(d) = &draft {
        if by_id(arr(state, "drafts"), d).is_none() {
            return err(format!("there is no draft {d:?}"));
        }
    }
    let action = form.required("do")?;
    if action == "discard" {
        let Some(d) = draft else {
            return err("There is no saved draft to discard");
        };
        coll_mut(state, "drafts")?.retain(|x| s(x, "id") != d);
        return Ok(Done {
            message: "Draft discarded".into(),
            go: Some("/f/drafts".into()),
        });
    }
    let to = addresses(form.required("to")?)?;
    let cc = addresses(form.get("cc").unwrap_or_default())?;
    let subject = form.required("subject")?.trim().to_string();
    let body = text_block(form.required("body")?);
    let reply = form
        .get("in_reply_to")
        .filter(|r| !r.is_empty())
        .map(str::to_string);
    match action {
        "save" => {
            let now = ctx.today.rfc3339();
            let id = match &draft {
                Some(d) => {
                    let rec = rec_mut(state, "drafts", d, "draft")?;
                    for (k, v) in [
                        ("to", json!(to)),
                        ("cc", json!(cc)),
                        ("subject", json!(subject)),
                        ("body", json!(body)),
                        ("updatedAt", json!(now)),
                    ] {
                        rec.insert(k.into(), v);
                    }
                    d.clone()
                }
                None => {
                    let drafts = coll_mut(state, "drafts")?;
                    let id = next_id(drafts, "d", 3);
                    drafts.push(json!({
                        "id": id, "to": to, "cc": cc, "subject": subject, "body": body,
                        "updatedAt": now, "inReplyTo": reply,
                    }));
                    id
                }
            };
            Ok(Done {
                message: "Draft saved".into(),
                go: Some(format!("/drafts/{id}")),
            })
        }
        "send" => {
            if to.is_empty() {
                return err("Add at least one recipient in To");
            }
            let original = |id: &Option<String>| {
                id.as_deref()
                    .and_then(|i| by_id(arr(state, "messages"), i))
                    .cloned()
            };
            let replied = original(&reply);
            let forwarded = original(&form.get("forward_of").map(str::to_string));
            let messages = arr(state, "messages");
            let id = next_id(messages, "m", 3);
            let thread = match &replied {
                Some(m) if !s(m, "threadId").is_empty() => s(m, "threadId").to_string(),
                _ => next_id(
                    &messages
                        .iter()
                        .map(|m| json!({"id": s(m, "threadId")}))
                        .collect::<Vec<_>>(),
                    "t",
                    3,
                ),
            };
            let account = state.get("account").cloned().unwrap_or(Value::Null);
            let attachments = forwarded
                .as_ref()
                .and_then(|m| m.get("attachments").cloned())
                .unwrap_or_else(|| json!([]));
            let record = json!({
                "id": id, "threadId": thread, "folder": "sent",
                "from": {"name": s(&account, "name"), "email": s(&account, "email")},
                "to": to, "cc": cc, "subject": subject, "body": body,
                "date": ctx.today.rfc3339(), "isRead": true, "isStarred": false,
                "labels": [], "attachments": attachments,
            });
            coll_mut(state, "messages")?.push(record);
            if let Some(d) = draft {
                coll_mut(state, "drafts")?.retain(|x| s(x, "id") != d);
            }
            Ok(Done {
                message: format!("Message sent to {}", to.join(", ")),
                go: Some("/f/sent".into()),
            })
        }
        other => err(format!("unknown compose action {other:?}")),
    }
}
