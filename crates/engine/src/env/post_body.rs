//! The body of `POST /post` (`{"action", "state", "merge"?}`), read without building a tree of
//! the state: the state stays the borrowed JSON text of the request, so a `set_current` — what a
//! UI sends after every change — costs one scan of its text ([`json_scan`]: the grammar checked
//! and the whitespace noted in the same pass) and, only when it has whitespace, one copy without
//! it; not a parse into `Value` and a serialisation back. A body the scan is not sure of is read
//! by serde_json (a [`RawValue`]), which names the error. `set` and `merge` need the tree (they
//! merge with the seed or the current state) and parse the text they were given.

use axum::body::Bytes;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use super::json_scan::{self, quote_or_backslash};
use super::session::Action;
use super::EnvError;

/// A parsed `POST /post` body.
#[derive(Debug)]
pub struct PostBody<'a> {
    /// The action (`set_current` with `"merge": true` is [`Action::Merge`]).
    pub action: Action,
    /// The `state` member as the client sent it (`None` when absent).
    pub state: Option<RawState<'a>>,
}

/// A member's JSON text as the client sent it (valid JSON).
#[derive(Debug, Clone, Copy)]
pub struct RawState<'a> {
    /// The text.
    pub text: &'a str,
    /// Whether it has whitespace between its tokens, when the reader already knows.
    pub spaced: Option<bool>,
}

impl<'a> RawState<'a> {
    /// Text whose whitespace is not known yet.
    pub fn new(text: &'a str) -> RawState<'a> {
        RawState { text, spaced: None }
    }
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
        if let Some(read) = Self::scanned(text) {
            return Ok(read);
        }
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
        let state = wire.state.map(|s| RawState::new(s.get()));
        Ok(Self::with(
            action.get(),
            wire.merge.map(RawValue::get),
            state,
        ))
    }

    /// The body read by [`json_scan`], when the scan is sure of it and it has an `action`
    /// (otherwise serde_json reads it, for its error messages: a duplicate member, say).
    fn scanned(text: &'a str) -> Option<Result<PostBody<'a>, EnvError>> {
        let members = json_scan::scan_object(text.as_bytes())?;
        let (mut action, mut state, mut merge) = (None, None, None);
        for m in members {
            let slot = match &text[m.key.clone()] {
                "action" => &mut action,
                "state" => &mut state,
                "merge" => &mut merge,
                _ => continue,
            };
            if slot.replace(m).is_some() {
                return None;
            }
        }
        let state = state.map(|m| RawState {
            text: &text[m.value],
            spaced: Some(m.spaced),
        });
        let merge = merge.map(|m| &text[m.value]);
        Some(Self::with(&text[action?.value], merge, state))
    }

    fn with(
        action: &str,
        merge: Option<&str>,
        state: Option<RawState<'a>>,
    ) -> Result<PostBody<'a>, EnvError> {
        let name = match serde_json::from_str::<&str>(action) {
            Ok(name) => name.to_string(),
            Err(_) => match serde_json::from_str::<String>(action) {
                Ok(name) => name,
                Err(_) => return Err(EnvError::UnknownAction(action.to_string())),
            },
        };
        let mut action: Action = name.parse()?;
        if action == Action::SetCurrent && merge == Some("true") {
            action = Action::Merge;
        }
        Ok(PostBody { action, state })
    }
}

/// The tree of a raw member (for the actions that need one).
pub fn value_of(raw: RawState) -> Result<Value, EnvError> {
    serde_json::from_str(raw.text).map_err(|e| EnvError::BadApp {
        app: "<request>".into(),
        detail: format!("state: {e}"),
    })
}

/// What kind of JSON value `raw` is, named as in error messages.
pub fn raw_type(raw: RawState) -> &'static str {
    match raw.text.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        _ => "a number",
    }
}

/// Calls `f` with the offset of each whitespace byte between the tokens of `text` (valid JSON),
/// in order, until `f` returns `false`. String contents are skipped to their closing quote.
fn each_space(text: &[u8], mut f: impl FnMut(usize) -> bool) {
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                // Skip the string: to the next quote not escaped by a backslash.
                i += 1;
                while let Some(at) = text.get(i..).and_then(quote_or_backslash) {
                    i += at;
                    if text[i] == b'\\' {
                        i += 2;
                    } else {
                        break;
                    }
                }
            }
            b' ' | b'\t' | b'\n' | b'\r' if !f(i) => return,
            _ => {}
        }
        i += 1;
    }
}

/// `raw` without the whitespace between its tokens (strings are copied byte for byte), i.e. the
/// compact text `serde_json::to_vec` writes for the same value up to number and escape
/// spelling, which the parser of every reader reads the same.
pub fn compact(raw: RawState) -> Vec<u8> {
    let text = raw.text.as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut start = 0;
    each_space(text, |i| {
        out.extend_from_slice(&text[start..i]);
        start = i + 1;
        true
    });
    out.extend_from_slice(&text[start.min(text.len())..]);
    out
}

/// [`compact`] of `raw`, a member of `body`: when the text has no whitespace to strip (what
/// `JSON.stringify` and serde send) it is a slice of `body`'s buffer, not a copy. The text is
/// scanned for whitespace only when the reader did not already say.
pub fn compact_in(body: &Bytes, raw: RawState) -> Bytes {
    let text = raw.text.as_bytes();
    let spaced = raw.spaced.unwrap_or_else(|| {
        let mut spaced = false;
        each_space(text, |_| {
            spaced = true;
            false
        });
        spaced
    });
    let (at, end) = (body.as_ptr() as usize, body.as_ptr() as usize + body.len());
    let from = text.as_ptr() as usize;
    if !spaced && from >= at && from + text.len() <= end {
        body.slice(from - at..from - at + text.len())
    } else {
        Bytes::from(compact(raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn raw(text: &str) -> RawState<'_> {
        RawState::new(text)
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
                String::from_utf8(compact(raw(c))).unwrap(),
                serde_json::to_string(&value).unwrap(),
                "{c}"
            );
        }
    }

    #[test]
    fn a_compact_state_is_shared_with_the_body_and_a_spaced_one_is_copied_compact() {
        let body =
            Bytes::from_static(br#"{"action":"set_current","state":{"a":"x \" y","b":[1,2]}}"#);
        let p = PostBody::parse(&body).unwrap().unwrap();
        let state = compact_in(&body, p.state.unwrap());
        assert_eq!(&state[..], br#"{"a":"x \" y","b":[1,2]}"#);
        let inside = body.as_ptr() as usize..body.as_ptr() as usize + body.len();
        assert!(
            inside.contains(&(state.as_ptr() as usize)),
            "not a slice of the body"
        );
        let spaced = Bytes::from_static(
            br#"{"action": "set_current", "state": {"a": "x \" y", "b": [1, 2]}}"#,
        );
        let p = PostBody::parse(&spaced).unwrap().unwrap();
        let state = compact_in(&spaced, p.state.unwrap());
        assert_eq!(&state[..], br#"{"a":"x \" y","b":[1,2]}"#);
        let inside = spaced.as_ptr() as usize..spaced.as_ptr() as usize + spaced.len();
        assert!(!inside.contains(&(state.as_ptr() as usize)));
        // A member that is not inside the given body is copied, never sliced out of bounds.
        let other = raw(r#"{"z":1}"#);
        assert_eq!(&compact_in(&body, other)[..], br#"{"z":1}"#);
    }

    #[test]
    fn the_word_scan_finds_the_first_quote_or_backslash_at_every_offset() {
        for len in 0..40 {
            for at in 0..=len {
                for c in [b'"', b'\\'] {
                    let mut t = vec![b'a'; len];
                    // Bytes that differ from the targets by one bit or carry must not match.
                    for (i, b) in t.iter_mut().enumerate() {
                        *b = [b'a', b'#', b'!', b']', 0xe9, 0x00, b'\x7f'][i % 7];
                    }
                    if at < len {
                        t[at] = c;
                        if at + 3 < len {
                            t[at + 3] = b'"';
                        }
                    }
                    let want = t.iter().position(|&x| x == b'"' || x == b'\\');
                    assert_eq!(quote_or_backslash(&t), want, "len {len} at {at}");
                }
            }
        }
    }

    #[test]
    fn bodies_parse_to_their_action_and_raw_state() {
        let b = br#"{"action": "set_current", "state": {"a": 1}}"#;
        let p = PostBody::parse(b).unwrap().unwrap();
        assert_eq!(p.action, Action::SetCurrent);
        assert_eq!(p.state.unwrap().text, r#"{"a": 1}"#);
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
        let v = value_of(raw(r#"{"x": [1, 2]}"#)).unwrap();
        assert_eq!(v, json!({"x": [1, 2]}));
    }
}
