//! The input rules every admin operation shares: money, counts, dates, country codes, handles
//! and tags, each refused with an error naming the field and the bad value; and the one place
//! that writes a record's changed fields.

use serde_json::{json, Map, Value};

use super::model::{arr, s};
use crate::ui::kit::err;
use crate::ui::OpError;

/// An amount of money from field `label`: blank is `null` when `optional`, else a number from 0
/// to 1,000,000,000 rounded to cents (a leading `$` and thousands commas are accepted).
pub fn money(raw: &str, label: &str, optional: bool) -> Result<Value, OpError> {
    let t = raw.trim().trim_start_matches('$').replace(',', "");
    if t.is_empty() {
        return if optional {
            Ok(Value::Null)
        } else {
            err(format!("{label} cannot be empty"))
        };
    }
    match t.parse::<f64>() {
        Ok(n) if n.is_finite() && (0.0..=1e9).contains(&n) => {
            Ok(json!((n * 100.0).round() / 100.0))
        }
        _ => err(format!("{label} must be an amount like 19.99, not {raw:?}")),
    }
}

/// A whole number from field `label` (stock may be negative: oversold).
pub fn count(raw: &str, label: &str) -> Result<Value, OpError> {
    match raw.trim().parse::<i64>() {
        Ok(n) if n.abs() <= 1_000_000_000 => Ok(json!(n)),
        _ => err(format!("{label} must be a whole number, not {raw:?}")),
    }
}

/// A number kept as an integer when whole (`15`, not `15.0`).
pub fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// A calendar date `YYYY-MM-DD` from field `label`; blank is `null`.
pub fn date(raw: &str, label: &str) -> Result<Value, OpError> {
    let t = raw.trim();
    if t.is_empty() {
        return Ok(Value::Null);
    }
    match chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        Ok(d) => Ok(json!(d.format("%Y-%m-%d").to_string())),
        Err(_) => err(format!(
            "{label} must be a date like 2026-08-31, not {raw:?}"
        )),
    }
}

/// A two-letter country code (ISO 3166-1 alpha-2), upper-cased.
pub fn country(raw: &str) -> Result<Value, OpError> {
    let t = raw.trim().to_uppercase();
    if t.len() == 2 && t.chars().all(|c| c.is_ascii_alphabetic()) {
        Ok(json!(t))
    } else {
        err(format!(
            "The country must be a two-letter code like US or CA, not {raw:?}"
        ))
    }
}

/// The URL handle of a title: lower-case words joined by `-`.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.to_lowercase().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The handle from field `raw` (blank: from `title`), unique in `key` apart from record `id`.
pub fn handle(
    state: &Value,
    key: &str,
    id: &str,
    raw: &str,
    title: &str,
) -> Result<Value, OpError> {
    let h = match slug(raw) {
        h if h.is_empty() => slug(title),
        h => h,
    };
    if h.is_empty() {
        return err("The handle needs at least one letter or digit");
    }
    if let Some(other) = arr(state, key)
        .iter()
        .find(|r| s(r, "handle") == h && s(r, "id") != id)
    {
        return err(format!(
            "The handle {h:?} is already used by {:?}",
            s(other, "title")
        ));
    }
    Ok(json!(h))
}

/// A tag: trimmed, 1 to 40 characters, no comma.
pub fn tag(raw: &str) -> Result<String, OpError> {
    let t = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return err("Type a tag first");
    }
    if t.chars().count() > 40 {
        return err("A tag is at most 40 characters");
    }
    if t.contains(',') {
        return err("A tag cannot hold a comma: add one tag at a time");
    }
    Ok(t)
}

/// The tags of a comma-separated field, in order, without repeats.
pub fn tag_list(raw: &str) -> Result<Vec<String>, OpError> {
    let mut out: Vec<String> = Vec::new();
    for part in raw.split(',').filter(|p| !p.trim().is_empty()) {
        let t = tag(part)?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(out)
}

/// Writes `set` into `rec`; returns the names of the fields whose value changed.
pub fn write(rec: &mut Map<String, Value>, set: Vec<(&str, Value)>) -> Vec<String> {
    let mut changed = Vec::new();
    for (field, v) in set {
        if rec.get(field).unwrap_or(&Value::Null) != &v {
            changed.push(field.to_string());
            rec.insert(field.to_string(), v);
        }
    }
    changed
}

/// The banner of an edit: what changed, or that nothing did.
pub fn saved(what: &str, changed: &[String]) -> String {
    if changed.is_empty() {
        format!("No changes to {what}")
    } else {
        format!("Saved {what}: {}", changed.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_parsed_or_refused_with_the_field_named() {
        assert_eq!(money(" $1,299.5 ", "Price", false).unwrap(), json!(1299.5));
        assert_eq!(money("", "Compare-at price", true).unwrap(), Value::Null);
        assert!(money("", "Price", false).unwrap_err().0.contains("Price"));
        assert!(money("-3", "Price", false)
            .unwrap_err()
            .0
            .contains("\"-3\""));
        assert_eq!(count("41", "Inventory").unwrap(), json!(41));
        assert!(count("4.5", "Inventory").unwrap_err().0.contains("whole"));
        assert_eq!(number(15.0), json!(15));
        assert_eq!(number(12.5), json!(12.5));
        assert_eq!(date("2026-08-31", "End").unwrap(), json!("2026-08-31"));
        assert_eq!(date(" ", "End").unwrap(), Value::Null);
        assert!(date("2026-02-30", "End date")
            .unwrap_err()
            .0
            .contains("End date"));
        assert_eq!(country(" ca ").unwrap(), json!("CA"));
        assert!(country("Canada").is_err());
        assert_eq!(slug("Gifts under $30!"), "gifts-under-30");
        assert_eq!(tag_list("eco, gift,,eco").unwrap(), vec!["eco", "gift"]);
        assert!(tag("  ").is_err());
        let state = json!({"products": [{"id": "p1", "handle": "mug", "title": "Mug"}]});
        assert_eq!(
            handle(&state, "products", "p1", "", "Mug").unwrap(),
            json!("mug")
        );
        assert!(handle(&state, "products", "p2", "", "Mug")
            .unwrap_err()
            .0
            .contains("already used by \"Mug\""));
    }
}
