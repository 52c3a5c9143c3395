//! Read access to a mail state document (tolerant of missing fields: a page of a partial state
//! renders what is there). The generic accessors are the shared ones ([`crate::ui::kit`]).

use chrono::{DateTime, Utc};
use serde_json::Value;

pub use crate::ui::kit::{arr, b, by_id, s};

/// The system folders, in sidebar order.
pub const SYSTEM: &[&str] = &["inbox", "sent", "drafts", "archive", "spam", "trash"];

/// The view a list page shows: one folder, one label, or every message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum View<'a> {
    /// Messages whose `folder` is this id.
    Folder(&'a str),
    /// Messages carrying this label id (outside spam and trash).
    Label(&'a str),
    /// Every message in every folder.
    All,
}

impl View<'_> {
    /// The page path of the view.
    pub fn path(&self) -> String {
        match self {
            View::Folder(f) => format!("/f/{f}"),
            View::Label(l) => format!("/l/{l}"),
            View::All => "/all".into(),
        }
    }

    /// Whether message `m` belongs in the view.
    pub fn holds(&self, m: &Value) -> bool {
        match self {
            View::Folder(f) => s(m, "folder") == *f,
            View::Label(l) => {
                !matches!(s(m, "folder"), "spam" | "trash") && labels_of(m).contains(l)
            }
            View::All => true,
        }
    }
}

/// The folder's display name (its id when the folder is unknown).
pub fn folder_name<'a>(state: &'a Value, id: &'a str) -> &'a str {
    match by_id(arr(state, "folders"), id) {
        Some(f) if !s(f, "name").is_empty() => s(f, "name"),
        _ => id,
    }
}

/// The label ids a message carries.
pub fn labels_of(m: &Value) -> Vec<&str> {
    arr(m, "labels").iter().filter_map(Value::as_str).collect()
}

/// A list of strings (`to`, `cc`).
pub fn strings<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    arr(v, key).iter().filter_map(Value::as_str).collect()
}

/// The instant of an RFC 3339 field.
pub fn date(v: &Value, key: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s(v, key))
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// The messages of a view, newest first (ties by id, so the order is stable).
pub fn messages<'a>(state: &'a Value, view: View<'_>) -> Vec<&'a Value> {
    let mut list: Vec<&Value> = arr(state, "messages")
        .iter()
        .filter(|m| view.holds(m))
        .collect();
    list.sort_by(|a, b| {
        s(b, "date")
            .cmp(s(a, "date"))
            .then_with(|| s(a, "id").cmp(s(b, "id")))
    });
    list
}

/// Unread messages in a folder.
pub fn unread(state: &Value, folder: &str) -> usize {
    arr(state, "messages")
        .iter()
        .filter(|m| s(m, "folder") == folder && !b(m, "isRead"))
        .count()
}

/// The sender's display name (falls back to the address).
pub fn sender(m: &Value) -> &str {
    let from = m.get("from").unwrap_or(&Value::Null);
    if s(from, "name").is_empty() {
        s(from, "email")
    } else {
        s(from, "name")
    }
}

/// The signed-in account's address.
pub fn me(state: &Value) -> &str {
    s(state.get("account").unwrap_or(&Value::Null), "email")
}

/// Whether `c` is a `#rrggbb` colour.
pub fn is_colour(c: &str) -> bool {
    c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|x| x.is_ascii_hexdigit())
}

/// The inline style of a label's colour swatch (grey for a malformed colour).
pub fn swatch(label: &Value) -> String {
    let c = s(label, "color");
    format!("background:{}", if is_colour(c) { c } else { "#999999" })
}
