//! Read access to a team-chat state document (tolerant of missing fields: a page of a partial
//! state renders what is there).

use serde_json::Value;
pub use crate::ui::kit::{arr, b, by_id, s};

/// The signed-in user's id.
pub fn me(state: &Value) -> &str {
    s(state, "currentUser")
}

/// A user's display name (falls back to the handle, then the id).
pub fn user_name<'a>(state: &'a Value, id: &'a str) -> &'a str {
    match by_id(arr(state, "users"), id) {
        Some(u) if !s(u, "displayName").is_empty() => s(u, "displayName"),
        Some(u) if !s(u, "name").is_empty() => s(u, "name"),
        _ => id,
    }
}

/// The messages of a conversation, in order.
pub fn messages<'a>(state: &'a Value, conversation: &str) -> &'a [Value] {
    state
        .get("messages")
        .and_then(|m| m.get(conversation))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// A channel or direct-message conversation.
pub enum Conversation<'a> {
    /// A channel record.
    Channel(&'a Value),
    /// A DM record.
    Dm(&'a Value),
}

/// The conversation with that id.
pub fn conversation<'a>(state: &'a Value, id: &str) -> Option<Conversation<'a>> {
    by_id(arr(state, "channels"), id)
        .map(Conversation::Channel)
        .or_else(|| by_id(arr(state, "dms"), id).map(Conversation::Dm))
}

/// The title of a DM: the other members' display names.
pub fn dm_title(state: &Value, dm: &Value) -> String {
    let me = me(state);
    let others: Vec<&str> = arr(dm, "members")
        .iter()
        .filter_map(Value::as_str)
        .filter(|u| *u != me)
        .map(|u| user_name(state, u))
        .collect();
    if others.is_empty() {
        user_name(state, me).to_string()
    } else {
        others.join(", ")
    }
}

/// Member ids of a channel.
pub fn members(channel: &Value) -> Vec<&str> {
    arr(channel, "members")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}
