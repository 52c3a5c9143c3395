//! Read access to an ecommerce-admin state document (tolerant of missing fields: a page of a
//! partial state renders what is there) and the shop's fixed vocabularies. The generic accessors
//! are the shared ones ([`crate::ui::kit`]).

use serde_json::Value;

pub use crate::ui::kit::{arr, b, by_id, s};

/// Product statuses, in the order the admin offers them.
pub const STATUSES: &[&str] = &["active", "draft", "archived"];
/// Payment states of an order.
pub const FINANCIAL: &[&str] = &["paid", "pending", "refunded"];
/// Fulfilment states of an order.
pub const FULFILMENT: &[&str] = &["unfulfilled", "fulfilled"];
/// Kinds of discount.
pub const DISCOUNT_TYPES: &[&str] = &["percentage", "fixed"];

/// The records of collection `key` whose `field` (any JSON scalar, compared as text) is `value`.
pub fn find<'a>(state: &'a Value, key: &str, field: &str, value: &str) -> Option<&'a Value> {
    arr(state, key).iter().find(|r| scalar(r, field) == value)
}

/// A scalar field as text: strings as they are, numbers and booleans printed, `""` otherwise.
pub fn scalar(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(x)) => x.to_string(),
        _ => String::new(),
    }
}

/// A number field, `None` when absent or null.
pub fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// The strings of an array field (tags, collection ids).
pub fn strs<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    arr(v, key).iter().filter_map(Value::as_str).collect()
}

/// An amount in the shop's currency (`$19.00`).
pub fn money(state: &Value, amount: f64) -> String {
    let currency = s(state.get("store").unwrap_or(&Value::Null), "currency");
    match currency {
        "" | "USD" | "CAD" | "AUD" => format!("${amount:.2}"),
        "EUR" => format!("€{amount:.2}"),
        "GBP" => format!("£{amount:.2}"),
        other => format!("{amount:.2} {other}"),
    }
}

/// A number as a form shows it: `19`, `12.5` (blank for none).
pub fn plain_number(v: Option<f64>) -> String {
    match v {
        None => String::new(),
        Some(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", n as i64),
        Some(n) => n.to_string(),
    }
}

/// A customer's full name (their email when nameless, the id when unknown).
pub fn customer_name(state: &Value, id: &str) -> String {
    match by_id(arr(state, "customers"), id) {
        Some(c) => {
            let name = format!("{} {}", s(c, "firstName"), s(c, "lastName"));
            if name.trim().is_empty() {
                s(c, "email").to_string()
            } else {
                name.trim().to_string()
            }
        }
        None => id.to_string(),
    }
}

/// A product's title by id (the id when unknown).
pub fn product_title<'a>(state: &'a Value, id: &'a str) -> &'a str {
    by_id(arr(state, "products"), id)
        .map(|p| s(p, "title"))
        .filter(|t| !t.is_empty())
        .unwrap_or(id)
}

/// The shop's name.
pub fn shop_name(state: &Value) -> &str {
    match s(state.get("store").unwrap_or(&Value::Null), "name") {
        "" => "Shop admin",
        name => name,
    }
}

/// Vendor names: the vendor list, then any name a product uses that the list lacks.
pub fn vendor_names(state: &Value) -> Vec<String> {
    let mut names: Vec<String> = arr(state, "vendors")
        .iter()
        .map(|v| s(v, "name").to_string())
        .filter(|n| !n.is_empty())
        .collect();
    for p in arr(state, "products") {
        let v = s(p, "vendor");
        if !v.is_empty() && !names.iter().any(|n| n == v) {
            names.push(v.to_string());
        }
    }
    names
}

/// How many products carry vendor name `name`.
pub fn products_of(state: &Value, name: &str) -> usize {
    arr(state, "products")
        .iter()
        .filter(|p| s(p, "vendor") == name)
        .count()
}

/// An RFC 3339 instant as the admin shows it (`Jan 21, 2026 18:00`; the text itself when it is
/// not one).
pub fn when(raw: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(raw)
        .map(|t| t.format("%b %-d, %Y %H:%M").to_string())
        .unwrap_or_else(|_| raw.to_string())
}
