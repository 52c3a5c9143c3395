//! The semantic operations of the team-chat UI: each edits the state document the way the app
//! would (a message appended with the next id and timestamp, a member added once, a name
//! normalised and checked for clashes) and names what was wrong when the input is bad.

use serde_json::{json, Map, Value};

use super::model::{arr, b, by_id, me, s};
use crate::ui::clock::{ts_micros, ts_text};
use crate::ui::{Ctx, Done, FormData, OpError};

/// Every operation, with the state paths it can write (checked against the shipped tasks).
pub const OPS: &[(&str, &[&str])] = &[
    ("send_message", &["messages"]),
    ("reply_in_thread", &["messages"]),
    ("toggle_reaction", &["messages"]),
    ("rename_channel", &["channels.name"]),
    ("set_topic", &["channels.topic", "channels.purpose"]),
    ("set_privacy", &["channels.isPrivate"]),
    ("archive_channel", &["channels.isArchived"]),
    ("unarchive_channel", &["channels.isArchived"]),
    ("invite_members", &["channels.members"]),
    ("remove_member", &["channels.members"]),
    (
        "create_channel",
        &[
            "channels.id",
            "channels.name",
            "channels.topic",
            "channels.purpose",
            "channels.isPrivate",
            "channels.isArchived",
            "channels.createdBy",
            "channels.createdAt",
            "channels.members",
        ],
    ),
    (
        "update_profile",
        &["users.displayName", "users.title", "users.timezone"],
    ),
];

/// The reactions the picker offers (Slack short names).
pub const EMOJI: &[&str] = &[
    "thumbsup",
    "white_check_mark",
    "eyes",
    "tada",
    "heart",
    "rocket",
    "raised_hands",
    "pray",
    "fire",
    "joy",
    "thinking_face",
    "100",
];

fn err<T>(text: impl Into<String>) -> Result<T, OpError> {
    Err(OpError(text.into()))
}

fn done(message: String, go: Option<String>) -> Result<Done, OpError> {
    Ok(Done { message, go })
}

/// Runs operation `op` on `state`.
pub fn apply(op: &str, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    match op {
        "send_message" => post(form, ctx, state, None),
        "reply_in_thread" => {
            let parent = form.non_blank("parent", "The thread")?.to_string();
            post(form, ctx, state, Some(parent))
        }
        "toggle_reaction" => toggle_reaction(form, state),
        "create_channel" => create_channel(form, ctx, state),
        "update_profile" => update_profile(form, state),
        _ => channel_op(op, form, state),
    }
}

fn channel_mut<'a>(state: &'a mut Value, id: &str) -> Result<&'a mut Map<String, Value>, OpError> {
    state
        .get_mut("channels")
        .and_then(Value::as_array_mut)
        .and_then(|cs| cs.iter_mut().find(|c| s(c, "id") == id))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| OpError(format!("there is no channel {id:?}")))
}

/// `#name` of a channel, for banners.
fn tag(state: &Value, id: &str) -> String {
    format!(
        "#{}",
        s(
            by_id(arr(state, "channels"), id).unwrap_or(&Value::Null),
            "name"
        )
    )
}

/// Lowercase, spaces to dashes; letters, digits, `-` and `_` only, at most 80 characters.
pub fn channel_name(raw: &str) -> Result<String, OpError> {
    let name: String = raw
        .trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-");
    if name.is_empty() {
        return err("The channel name cannot be empty");
    }
    if name.chars().count() > 80 {
        return err("The channel name is longer than 80 characters");
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || *c == '-' || *c == '_'))
    {
        return err(format!(
            "The channel name may hold only letters, digits, dashes and underscores, not {bad:?}"
        ));
    }
    Ok(name)
}

fn name_taken(state: &Value, name: &str, except: &str) -> bool {
    arr(state, "channels")
        .iter()
        .any(|c| s(c, "name") == name && s(c, "id") != except)
}

fn user_ids(state: &Value) -> Vec<String> {
    arr(state, "users")
        .iter()
        .map(|u| s(u, "id").to_string())
        .collect()
}

fn channel_op(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("channel", "The channel")?.to_string();
    let before = tag(state, &id);
    let users = user_ids(state);
    let taken = |state: &Value, name: &str| name_taken(state, name, &id);
    let message = match op {
        "rename_channel" => {
            let name = channel_name(form.required("name")?)?;
            if taken(state, &name) {
                return err(format!("A channel named #{name} already exists"));
            }
            channel_mut(state, &id)?.insert("name".into(), json!(name));
            format!("Renamed {before} to #{name}")
        }
        "set_topic" => {
            let topic = form.required("topic")?.trim().to_string();
            let purpose = form.required("purpose")?.trim().to_string();
            let c = channel_mut(state, &id)?;
            c.insert("topic".into(), json!(topic));
            c.insert("purpose".into(), json!(purpose));
            format!("Saved the topic and purpose of {before}")
        }
        "set_privacy" => {
            let private = form.required("private")? == "true";
            channel_mut(state, &id)?.insert("isPrivate".into(), json!(private));
            let what = if private { "private" } else { "public" };
            format!("{before} is now {what}")
        }
        "archive_channel" | "unarchive_channel" => {
            let archive = op == "archive_channel";
            channel_mut(state, &id)?.insert("isArchived".into(), json!(archive));
            let what = if archive { "Archived" } else { "Unarchived" };
            format!("{what} {before}")
        }
        "invite_members" => {
            let wanted = form.all("user");
            if wanted.is_empty() {
                return err("Tick at least one person to add");
            }
            if let Some(u) = wanted.iter().find(|u| !users.iter().any(|x| x == *u)) {
                return err(format!("There is no user {u:?}"));
            }
            let c = channel_mut(state, &id)?;
            let list = c.entry("members").or_insert_with(|| json!([]));
            let Some(list) = list.as_array_mut() else {
                return err(format!("{before} has a malformed member list"));
            };
            let mut added = 0;
            for u in wanted {
                if !list.iter().any(|m| m.as_str() == Some(u)) {
                    list.push(json!(u));
                    added += 1;
                }
            }
            format!("Added {added} people to {before}")
        }
        "remove_member" => {
            let user = form.non_blank("user", "The member")?.to_string();
            let c = channel_mut(state, &id)?;
            if let Some(list) = c.get_mut("members").and_then(Value::as_array_mut) {
                list.retain(|m| m.as_str() != Some(&user));
            }
            format!("Removed {user} from {before}")
        }
        other => return err(format!("unknown operation {other:?}")),
    };
    done(message, None)
}

/// The next free message id `MU0001`, `MU0002`, … across all conversations.
fn next_message_id(state: &Value) -> String {
    let used: std::collections::HashSet<&str> = state
        .get("messages")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(Value::as_array)
        .flatten()
        .map(|m| s(m, "id"))
        .collect();
    (1..)
        .map(|n| format!("MU{n:04}"))
        .find(|id| !used.contains(id.as_str()))
        .unwrap_or_default()
}

fn post(
    form: &FormData,
    ctx: &Ctx,
    state: &mut Value,
    parent: Option<String>,
) -> Result<Done, OpError> {
    let conv = form.non_blank("channel", "The conversation")?.to_string();
    let text = form.required("text")?.trim_end().to_string();
    if text.trim().is_empty() {
        return err("Type a message before sending");
    }
    if let Some(c) = by_id(arr(state, "channels"), &conv) {
        if b(c, "isArchived") {
            return err(format!(
                "#{} is archived: unarchive it to post",
                s(c, "name")
            ));
        }
    } else if by_id(arr(state, "dms"), &conv).is_none() {
        return err(format!("there is no conversation {conv:?}"));
    }
    let id = next_message_id(state);
    let user = me(state).to_string();
    let list = state
        .as_object_mut()
        .ok_or_else(|| OpError("the state is not an object".into()))?
        .entry("messages")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or_else(|| OpError("`messages` is not an object".into()))?
        .entry(conv.clone())
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| OpError(format!("`messages.{conv}` is not an array")))?;
    let last = list
        .iter()
        .filter_map(|m| ts_micros(s(m, "ts")))
        .max()
        .unwrap_or(0);
    let ts = ts_text(ctx.today.micros().max(last + 1));
    let thread_ts = match &parent {
        Some(pid) => {
            let Some(p) = list.iter_mut().find(|m| s(m, "id") == pid.as_str()) else {
                return err(format!("there is no message {pid:?} in this conversation"));
            };
            let n = p.get("replyCount").and_then(Value::as_i64).unwrap_or(0);
            p["replyCount"] = json!(n + 1);
            json!(s(p, "ts"))
        }
        None => Value::Null,
    };
    list.push(json!({
        "id": id, "userId": user, "text": text, "ts": ts, "threadTs": thread_ts,
        "replyCount": 0, "edited": false, "reactions": [], "attachments": [],
    }));
    let what = if parent.is_some() {
        "Reply sent"
    } else {
        "Message sent"
    };
    done(what.into(), None)
}

fn toggle_reaction(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let conv = form.non_blank("channel", "The conversation")?.to_string();
    let mid = form.non_blank("message", "The message")?.to_string();
    let emoji = form.non_blank("emoji", "The emoji")?.to_string();
    if !EMOJI.contains(&emoji.as_str())
        && !emoji
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '+' || c == '-')
    {
        return err(format!("{emoji:?} is not an emoji name"));
    }
    let user = me(state).to_string();
    let message = state
        .get_mut("messages")
        .and_then(|m| m.get_mut(&conv))
        .and_then(Value::as_array_mut)
        .and_then(|ms| ms.iter_mut().find(|m| s(m, "id") == mid))
        .ok_or_else(|| OpError(format!("there is no message {mid:?} in {conv:?}")))?;
    let reactions = message
        .as_object_mut()
        .ok_or_else(|| OpError(format!("message {mid:?} is malformed")))?
        .entry("reactions")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| OpError(format!("message {mid:?} has malformed reactions")))?;
    let added = match reactions.iter_mut().position(|r| s(r, "emoji") == emoji) {
        None => {
            reactions.push(json!({"emoji": emoji, "users": [user]}));
            true
        }
        Some(i) => {
            let users = reactions[i]
                .as_object_mut()
                .and_then(|r| r.get_mut("users"))
                .and_then(Value::as_array_mut)
                .ok_or_else(|| OpError(format!("message {mid:?} has a malformed reaction")))?;
            let had = users.iter().any(|u| u.as_str() == Some(&user));
            if had {
                users.retain(|u| u.as_str() != Some(&user));
                if users.is_empty() {
                    reactions.remove(i);
                }
            } else {
                users.push(json!(user));
            }
            !had
        }
    };
    let verb = if added { "Added" } else { "Removed" };
    done(format!("{verb} :{emoji}:"), None)
}

fn create_channel(form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let name = channel_name(form.required("name")?)?;
    if name_taken(state, &name, "") {
        return err(format!("A channel named #{name} already exists"));
    }
    let users = user_ids(state);
    let creator = me(state).to_string();
    let mut members = vec![creator.clone()];
    for u in form.all("member") {
        if !users.iter().any(|x| x == u) {
            return err(format!("There is no user {u:?}"));
        }
        if !members.iter().any(|m| m == u) {
            members.push(u.to_string());
        }
    }
    let ids: Vec<&str> = arr(state, "channels").iter().map(|c| s(c, "id")).collect();
    let id = (1..)
        .map(|n| format!("C{n:02}"))
        .find(|c| !ids.contains(&c.as_str()))
        .unwrap_or_default();
    let record = json!({
        "id": id, "name": name,
        "topic": form.required("topic")?.trim(), "purpose": form.required("purpose")?.trim(),
        "isPrivate": form.checked("private"), "isArchived": false,
        "createdBy": creator, "createdAt": ctx.today.rfc3339(), "members": members,
    });
    state
        .as_object_mut()
        .ok_or_else(|| OpError("the state is not an object".into()))?
        .entry("channels")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| OpError("`channels` is not an array".into()))?
        .push(record);
    done(format!("Created #{name}"), Some(format!("/c/{id}")))
}

fn update_profile(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let display = form
        .non_blank("displayName", "The display name")?
        .to_string();
    let title = form.required("title")?.trim().to_string();
    let tz = form.non_blank("timezone", "The time zone")?.to_string();
    if !tz.contains('/') && tz != "UTC" {
        return err(format!("{tz:?} is not a time zone name like Europe/Lisbon"));
    }
    let me = me(state).to_string();
    let user = state
        .get_mut("users")
        .and_then(Value::as_array_mut)
        .and_then(|us| us.iter_mut().find(|u| s(u, "id") == me))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| OpError(format!("the signed-in user {me:?} is not in the user list")))?;
    user.insert("displayName".into(), json!(display));
    user.insert("title".into(), json!(title));
    user.insert("timezone".into(), json!(tz));
    done("Profile saved".into(), None)
}
