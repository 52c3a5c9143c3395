//! Mutable access to the records of a mail state and the small rules every operation shares:
//! the next free id, address parsing, the error type.

use serde_json::{Map, Value};

use super::model::s;
use crate::engine::ui::OpError;

/// An operation's bad-input error.
pub fn err<T>(text: impl Into<String>) -> Result<T, OpError> {
    Err(OpError(text.into()))
}

/// The array `key` of the state, created empty when absent.
pub fn coll_mut<'a>(state: &'a mut Value, key: &str) -> Result<&'a mut Vec<Value>, OpError> {
    state
        .as_object_mut()
        .ok_or_else(|| OpError("the state is not an object".into()))?
        .entry(key)
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .ok_or_else(|| OpError(format!("`{key}` is not an array")))
}

/// The record of `key` whose `id` is `id`; `what` names it in the error ("contact").
pub fn rec_mut<'a>(
    state: &'a mut Value,
    key: &str,
    id: &str,
    what: &str,
) -> Result<&'a mut Map<String, Value>, OpError> {
    coll_mut(state, key)?
        .iter_mut()
        .find(|r| s(r, "id") == id)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| OpError(format!("there is no {what} {id:?}")))
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

/// A comma- or semicolon-separated list of addresses (blank entries ignored).
pub fn addresses(raw: &str) -> Result<Vec<String>, OpError> {
    raw.split([',', ';'])
        .filter(|a| !a.trim().is_empty())
        .map(address)
        .collect()
}

/// Text from a `<textarea>` as the state keeps it: browsers submit CRLF line breaks.
pub fn text_block(raw: &str) -> String {
    raw.replace("\r\n", "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_lists_and_names_and_refuse_what_is_not_one() {
        assert_eq!(
            addresses("Zoe <Zoe.Tanaka@acme.com>; hiro.novak@acme.com, ").unwrap(),
            vec!["zoe.tanaka@acme.com", "hiro.novak@acme.com"]
        );
        assert!(addresses("").unwrap().is_empty());
        for bad in [
            "zoe",
            "zoe@",
            "@acme.com",
            "zoe@acme",
            "zo e@acme.com",
            "a@b@c.com",
        ] {
            assert!(
                address(bad).unwrap_err().0.contains("not an email address"),
                "{bad}"
            );
        }
        let items = serde_json::json!([{"id": "m002"}, {"id": "m901"}, {"id": "x"}]);
        assert_eq!(next_id(items.as_array().unwrap(), "m", 3), "m902");
        assert_eq!(next_id(&[], "lb", 0), "lb1");
        assert_eq!(text_block("a\r\nb\r\n"), "a\nb\n");
    }
}
