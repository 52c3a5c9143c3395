//! Forms submitted as a browser would submit them (hidden fields, the checked radios and boxes,
//! the typed text): what the apps' coverage tests do every shipped task with.

use serde_json::Value;

use super::tests::form_of;
use super::{app_ui, Ctx, FormData};

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// One control of a form: (kind, name, value, checked).
pub(crate) type Control = (String, String, String, bool);

/// The controls of a form's HTML, in order (inputs and textareas).
pub(crate) fn controls(form: &str) -> Vec<Control> {
    let tag =
        regex::Regex::new(r#"(?s)<input\b([^>]*)>|<textarea\b([^>]*)>(.*?)</textarea>"#).unwrap();
    let attr = regex::Regex::new(r#"([a-zA-Z-]+)(?:="([^"]*)")?"#).unwrap();
    let mut out = Vec::new();
    for c in tag.captures_iter(form) {
        let (attrs, text) = match (c.get(1), c.get(2)) {
            (Some(a), _) => (a.as_str(), None),
            (_, Some(a)) => (a.as_str(), c.get(3).map(|t| unescape(t.as_str()))),
            _ => continue,
        };
        let get = |k: &str| {
            attr.captures_iter(attrs)
                .find(|a| &a[1] == k)
                .map(|a| a.get(2).map(|v| unescape(v.as_str())).unwrap_or_default())
        };
        let Some(name) = get("name") else { continue };
        let kind = if text.is_some() {
            "textarea".into()
        } else {
            get("type").unwrap_or("text".into())
        };
        let value = text.or_else(|| get("value")).unwrap_or_default();
        out.push((kind, name, value, get("checked").is_some()));
    }
    out
}

/// Submits the form of `op` on `page` of `state` as a browser would after a person set
/// `fields` (text typed, or the radio / checkbox of that value chosen; `!name` unticks the boxes
/// of `name`); panics when the page has no such form, field or choice.
pub(crate) fn submit(
    app: &str,
    ctx: &Ctx,
    state: &mut Value,
    page: &str,
    op: &str,
    fields: &[(&str, String)],
) -> Result<String, String> {
    let ui = app_ui(app).unwrap();
    let (_, markup) = ui
        .page(page, state, ctx)
        .unwrap_or_else(|| panic!("no page {page}"));
    let html = markup.into_string();
    let form = form_of(&html, op).unwrap_or_else(|| panic!("{page} has no {op} form"));
    let mut ctl = controls(form);
    for (name, value) in fields {
        if let Some(name) = name.strip_prefix('!') {
            let boxes = ctl.iter_mut().filter(|c| c.1 == name && c.0 == "checkbox");
            assert!(
                boxes.map(|c| c.3 = false).count() > 0,
                "{page}: no box {name}"
            );
            continue;
        }
        let choice = ctl
            .iter()
            .any(|(k, n, _, _)| n == name && (k == "radio" || k == "checkbox"));
        if choice {
            let Some(at) = ctl.iter().position(|(_, n, v, _)| n == name && v == value) else {
                panic!("{page}: the {op} form offers no {name} = {value:?}");
            };
            if ctl[at].0 == "radio" {
                ctl.iter_mut()
                    .filter(|c| c.1 == *name)
                    .for_each(|c| c.3 = false);
            }
            ctl[at].3 = true;
        } else {
            let c = ctl.iter_mut().find(|(_, n, _, _)| n == name);
            let c = c.unwrap_or_else(|| panic!("{page}: the {op} form has no field {name}"));
            c.2 = value.clone();
        }
    }
    let pairs: Vec<(String, String)> = ctl
        .into_iter()
        .filter(|(k, _, _, checked)| !(k == "radio" || k == "checkbox") || *checked)
        .map(|(_, n, v, _)| (n, v))
        .collect();
    ui.apply(op, &FormData(pairs), ctx, state)
        .map(|d| d.message)
        .map_err(|e| e.0)
}

/// A slot value as a form field holds it: strings as they are, null as blank, numbers as text.
pub(crate) fn text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether record `rec` holds `want` in `field` (`field+`: holds every listed item).
pub(crate) fn holds(rec: &Value, field: &str, want: &Value) -> bool {
    match field.strip_suffix('+') {
        Some(name) => {
            let wanted = want
                .as_array()
                .cloned()
                .unwrap_or_else(|| vec![want.clone()]);
            wanted
                .iter()
                .all(|w| rec[name].as_array().is_some_and(|a| a.contains(w)))
        }
        None => &rec[field] == want,
    }
}
