//! Slot pools drawn from the built-in apps' default seeds (`assets/apps/<app>/seed.json`), so every
//! generated slot names something that exists in the environment the loop starts from.

use serde_json::Value;

use super::TaskgenError;

/// The parsed default seeds of the web apps.
#[derive(Debug, Clone)]
pub struct Seeds {
    /// team-chat.
    pub chat: Value,
    /// mail.
    pub mail: Value,
    /// issue-tracker.
    pub tracker: Value,
    /// ecommerce-admin.
    pub shop: Value,
}

fn parse(app: &str, text: &str) -> Result<Value, TaskgenError> {
    serde_json::from_str(text).map_err(|e| TaskgenError::Seed {
        app: app.into(),
        what: e.to_string(),
    })
}

impl Seeds {
    /// The seeds compiled into the binary.
    pub fn builtin() -> Result<Self, TaskgenError> {
        Ok(Self {
            chat: parse(
                "team-chat",
                include_str!("../../../assets/apps/team-chat/seed.json"),
            )?,
            mail: parse("mail", include_str!("../../../assets/apps/mail/seed.json"))?,
            tracker: parse(
                "issue-tracker",
                include_str!("../../../assets/apps/issue-tracker/seed.json"),
            )?,
            shop: parse(
                "ecommerce-admin",
                include_str!("../../../assets/apps/ecommerce-admin/seed.json"),
            )?,
        })
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
