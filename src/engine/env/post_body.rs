//! The body of `POST /post` (`{"action", "state", "merge"?}`), read without building a tree of
//! the state: the state stays the borrowed JSON text of the request ([`RawValue`], validated by
//! the parser), so a `set_current` — what a UI sends after every change — costs one scan of its
//! text and one copy without whitespace, not a parse into `Value` and a serialisation back.
//! `set` and `merge` need the tree (they merge with the seed or the current state) and parse
//! the text they were given.

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use super::session::Action;
use super::EnvError;

/// A parsed `POST /post` body.
#[derive(Debug)]
pub struct PostBody<'a> {
    /// The action (`set_current` with `"merge": true` is [`Action::Merge`]).
    pub action: Action,
    /// The `state` member as the client sent it (`None` when absent).
    pub state: Option<&'a RawValue>,
}

/// Why a body was refused, before any action ran.
#[derive(Debug, PartialEq)]
pub enum BodyError {
    /// Not JSON, or not an object; the detail says what and where.
    Malformed(String),
    /// No `action` member.
    MissingAction,
}

#[derive(Deserialize)]
struct Wire<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    action: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    state: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    merge: Option<&'a RawValue>,
}

/// A member that is present, even when it is `null` (`Option` alone would read `null` as absent).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

impl<'a> PostBody<'a> {
    /// Reads `body`; an unknown action is an [`EnvError::UnknownAction`] inside `Ok(Err)`.
    pub fn parse(body: &'a [u8]) -> Result<Result<PostBody<'a>, EnvError>, BodyError> {
        let text = std::str::from_utf8(body)
            .map_err(|e| BodyError::Malformed(format!("request body is not UTF-8: {e}")))?;
        if !text.trim_start().starts_with('{') {
            // Parse what it is, for the same message as before: a syntax error, or not an object.
            return Err(match serde_json::from_str::<&RawValue>(text) {
                Err(e) => BodyError::Malformed(format!("request body: {e}")),
                Ok(_) => BodyError::Malformed("the body must be a JSON object".into()),
            });
        }
        let wire: Wire<'a> = serde_json::from_str(text)
            .map_err(|e| BodyError::Malformed(format!("request body: {e}")))?;
        let Some(action) = wire.action else {
            return Err(BodyError::MissingAction);
        };
        let name = match serde_json::from_str::<&str>(action.get()) {
            Ok(name) => name.to_string(),
            Err(_) => match serde_json::from_str::<String>(action.get()) {
                Ok(name) => name,
                Err(_) => return Ok(Err(EnvError::UnknownAction(action.get().to_string()))),
            },
        };
        let mut action: Action = match name.parse() {
            Ok(a) => a,
            Err(e) => return Ok(Err(e)),
        };
        if action == Action::SetCurrent && wire.merge.is_some_and(|m| m.get() == "true") {
            action = Action::Merge;
        }
        Ok(Ok(PostBody {
            action,
            state: wire.state,
        }))
    }
}

/// The tree of a raw member (for the actions that need one).
pub fn value_of(raw: &RawValue) -> Result<Value, EnvError> {
    serde_json::from_str(raw.get()).map_err(|e| EnvError::BadApp {
        app: "<request>".into(),
        detail: format!("state: {e}"),
    })
}

/// What kind of JSON value `raw` is, named as in error messages.
pub fn raw_type(raw: &RawValue) -> &'static str {
    match raw.get().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        _ => "a number",
    }
}

/// `raw` without the whitespace between its tokens (strings are copied byte for byte), i.e. the
/// compact text `serde_json::to_vec` writes for the same value up to number and escape
/// spelling, which the parser of every reader reads the same.
pub fn compact(raw: &RawValue) -> Vec<u8> {
    let text = raw.get().as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, &c) in text.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            out.extend_from_slice(&text[start..i]);
            start = i + 1;
        }
    }
    out.extend_from_slice(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).unwrap()
    }

    #[test]
    fn compact_text_is_what_serde_writes_for_the_same_value() {
        let cases = [
            r#"{ "a" : 1, "b": [ 1 , 2 ], "c": { "d e": "x \" y\\", "f": null } }"#,
            "{\n\t\"k\": \"tab\\tin\\nstring\",\r\n \"n\": -1.5, \"t\": true, \"u\": \"é ü\" }",
            r#"{"already":"compact","nested":[{"x":[]},{}]}"#,
            r#"{"s": "  spaces  inside  ", "esc": "\\", "after": 1 }"#,
        ];
        for c in cases {
            let value: Value = serde_json::from_str(c).unwrap();
            assert_eq!(
                String::from_utf8(compact(&raw(c))).unwrap(),
                serde_json::to_string(&value).unwrap(),
                "{c}"
            );
        }
    }

    #[test]
    fn bodies_parse_to_their_action_and_raw_state() {
        let b = br#"{"action": "set_current", "state": {"a": 1}}"#;
        let p = PostBody::parse(b).unwrap().unwrap();
        assert_eq!(p.action, Action::SetCurrent);
        assert_eq!(p.state.unwrap().get(), r#"{"a": 1}"#);
        let m = PostBody::parse(br#"{"action":"set_current","merge":true,"state":{}}"#);
        assert_eq!(m.unwrap().unwrap().action, Action::Merge);
        let n = PostBody::parse(br#"{"action":"set_current","state":null}"#).unwrap();
        assert_eq!(raw_type(n.unwrap().state.unwrap()), "null");
        let r = PostBody::parse(br#"{"action":"reset"}"#).unwrap().unwrap();
        assert!(r.state.is_none());
    }

    #[test]
    fn bad_bodies_name_what_is_wrong() {
        assert_eq!(
            PostBody::parse(b"[1]").unwrap_err(),
            BodyError::Malformed("the body must be a JSON object".into())
        );
        assert!(
            matches!(PostBody::parse(b"{\"action\": ").unwrap_err(), BodyError::Malformed(d) if d.starts_with("request body: "))
        );
        assert_eq!(
            PostBody::parse(br#"{"state":{}}"#).unwrap_err(),
            BodyError::MissingAction
        );
        let unknown = PostBody::parse(br#"{"action":"explode"}"#).unwrap();
        assert!(matches!(unknown, Err(EnvError::UnknownAction(a)) if a == "explode"));
        let number = PostBody::parse(br#"{"action":7}"#).unwrap();
        assert!(matches!(number, Err(EnvError::UnknownAction(a)) if a == "7"));
        let v = value_of(&raw(r#"{"x": [1, 2]}"#)).unwrap();
        assert_eq!(v, json!({"x": [1, 2]}));
    }
}
