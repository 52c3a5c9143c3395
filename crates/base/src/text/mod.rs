//! Bounded text input, the bottom of the engine: size limits every kind of input file is checked
//! against before a byte is read, and UTF-8 decoding that says where the first bad byte is
//! ([`sizes`]); the short name of a JSON value's type errors quote ([`json_type`]). Imports nothing of the engine, so the scanner and the bundle reader both build on it.

pub mod sizes;

/// Short JSON type name for error messages (`a string`, `an array`…).
pub fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
