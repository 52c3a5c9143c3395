//! Small pieces every app UI shares: tolerant readers of a state document, the operation error
//! helpers, radio groups, id and address rules. Packs' UIs (`crates/engine/src/apps/<pack>/ui/`) build on them.

use maud::{html, Markup};
use serde_json::{json, Value};

use super::OpError;

/// A string field, `""` when absent.
pub fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// A boolean field, `false` when absent.
pub fn b(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// An array field, empty when absent.
pub fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// The element of `items` whose `id` is `id`.
pub fn by_id<'a>(items: &'a [Value], id: &str) -> Option<&'a Value> {
    items.iter().find(|x| s(x, "id") == id)
}

/// An operation's error.
pub fn err<T>(text: impl Into<String>) -> Result<T, OpError> {
    Err(OpError(text.into()))
}

/// A mutable array at `key` of the document (created when absent).
pub fn list_mut<'a>(state: &'a mut Value, key: &str) -> Result<&'a mut Vec<Value>, OpError> {
    state
        .as_object_mut()
        .ok_or_else(|| OpError("the state is not an object".into()))?
        .entry(key)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| OpError(format!("`{key}` is not an array")))
}

/// Checks a value against a fixed vocabulary.
pub fn one_of(raw: &str, allowed: &[&str], what: &str) -> Result<String, OpError> {
    let raw = raw.trim();
    if allowed.contains(&raw) {
        Ok(raw.to_string())
    } else {
        err(format!(
            "{what} must be one of {}, not {raw:?}",
            allowed.join(", ")
        ))
    }
}

/// A group of radio buttons `name` over `(value, label)` choices with `current` checked.
pub fn radios(legend: &str, name: &str, choices: &[(String, String)], current: &str) -> Markup {
    html! {
        fieldset.radios {
            legend { (legend) }
            @for (value, label) in choices {
                label.choice {
                    input type="radio" name=(name) value=(value) checked[value == current];
                    (label)
                }
            }
        }
    }
}

/// Choices from a fixed vocabulary (value = label).
pub fn plain(values: &[&str]) -> Vec<(String, String)> {
    values
        .iter()
        .map(|v| (v.to_string(), v.to_string()))
        .collect()
}

/// The next id `<prefix><n>` after the largest number in use (zero-padded to `width`), so an
/// id is never reused, even after a record was deleted.
pub fn next_id(items: &[Value], prefix: &str, width: usize) -> String {
    let top = items
        .iter()
        .filter_map(|r| s(r, "id").strip_prefix(prefix)?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    format!("{prefix}{:0width$}", top + 1)
}

/// One address: `a@b.c` or `Name <a@b.c>`, lower-cased.
pub fn address(raw: &str) -> Result<String, OpError> {
    let raw = raw.trim();
    let inner = match (raw.rfind('<'), raw.ends_with('>')) {
        (Some(at), true) => &raw[at + 1..raw.len() - 1],
        _ => raw,
    };
    let ok = match inner.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains('@')
                && !inner.chars().any(char::is_whitespace)
        }
        None => false,
    };
    if ok {
        Ok(inner.to_lowercase())
    } else {
        err(format!("{raw:?} is not an email address"))
    }
}

/// Text from a `<textarea>` as the state keeps it: browsers submit CRLF line breaks.
pub fn text_block(raw: &str) -> String {
    raw.replace("\r\n", "\n")
}
