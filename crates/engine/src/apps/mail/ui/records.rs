//! Mutable access to the records of a mail state and the small rules every operation shares:
//! the next free id, address parsing, the error type.

use serde_json::{Map, Value};

use super::model::s;
use crate::ui::OpError;
pub use crate::ui::kit::{address, next_id, text_block};

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

/// A comma- or semicolon-separated list of addresses (blank entries ignored).
pub fn addresses(raw: &str) -> Result<Vec<String>, OpError> {
    raw.split([',', ';'])
        .filter(|a| !a.trim().is_empty())
        .map(address)
        .collect()
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
