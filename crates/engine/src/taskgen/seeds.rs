//! Slot pools drawn from the built-in apps' default seeds (each pack's `seed.json`), so every
//! generated slot names something that exists in the environment the loop starts from.

use serde_json::Value;

use super::TaskgenError;

/// The parsed default seeds of the apps that have one, by app name.
#[derive(Debug, Clone)]
pub struct Seeds {
    by_app: std::collections::BTreeMap<String, Value>,
}

fn parse(app: &str, text: &str) -> Result<Value, TaskgenError> {
    serde_json::from_str(text).map_err(|e| TaskgenError::Seed {
        app: app.into(),
        what: e.to_string(),
    })
}

impl Seeds {
    /// The seeds compiled into the binary (every pack's `seed.json`, [`crate::apps`]).
    pub fn builtin() -> Result<Self, TaskgenError> {
        let mut by_app = std::collections::BTreeMap::new();
        for pack in crate::apps::all() {
            if let Some(text) = pack.app.seed_text() {
                by_app.insert(pack.name().to_string(), parse(pack.name(), text)?);
            }
        }
        Ok(Self { by_app })
    }

    /// The default seed of `app` (`null` when it has none).
    pub fn of(&self, app: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.by_app.get(app).unwrap_or(&NULL)
    }
}

/// The objects of `v[key]` (empty when absent).
pub fn list<'a>(v: &'a Value, key: &str) -> Vec<&'a Value> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

/// `v[key]` as a string ("" when absent).
pub fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}
