//! Views of one record (detail, thread, document) and the settings page.

use maud::{html, Markup};
use serde_json::Value;

use super::super::model::{label, list, scalar_text, Model};
use super::super::spec::{ActionOn, View, ViewKind};
use super::collection::shown;
use super::form::action_form;

/// The page body of record view `view` for `record`.
pub fn body(model: &Model, state: &Value, view: &View, path: &str, record: &Value) -> Markup {
    let Some(ent) = view.entity.as_deref().and_then(|e| model.entity(e)) else {
        return html! {};
    };
    let main = match view.kind {
        ViewKind::Document => {
            let f = view.body_field.as_deref().unwrap_or_default();
            html! { article.document data-field=(f) { div.body { (scalar_text(&record[f])) } } }
        }
        _ => html! {
            dl.fields data-id=(scalar_text(&record["id"])) {
                @for f in shown(ent, view) {
                    dt { (label(f)) }
                    dd data-field=(f.name) data-value=(value_attr(&record[&f.name])) { (model.display(state, f, &record[&f.name])) }
                }
            }
        },
    };
    let thread = view
        .thread_field
        .as_deref()
        .and_then(|t| Model::field(ent, t).map(|f| (t, f)));
    html! {
        (main)
        @if let Some((t, f)) = thread {
            section.thread aria-label=(label(f)) {
                @for m in list(&record[t]) {
                    div.message {
                        @for sub in f.fields.iter().map(toml::Spanned::get_ref) {
                            div data-field=(sub.name) { (model.display(state, sub, &m[&sub.name])) }
                        }
                    }
                }
            }
        }
        @for a in view.actions.iter().filter_map(|n| model.action(n)) {
            @if a.on == ActionOn::Record {
                (action_form(model, state, &view.name, path, a, Some(record), false))
            } @else {
                (action_form(model, state, &view.name, path, a, None, false))
            }
        }
    }
}

/// The settings page: the record entity's singleton actions, pre-filled.
pub fn settings(model: &Model, state: &Value, view: &View, path: &str) -> Markup {
    let rec = view
        .entity
        .as_deref()
        .and_then(|e| state.get(e))
        .cloned()
        .unwrap_or(Value::Null);
    html! {
        @for a in view.actions.iter().filter_map(|n| model.action(n)) {
            (action_form(model, state, &view.name, path, a, Some(&rec).filter(|r| r.is_object()).filter(|_| a.on != ActionOn::Collection), false))
        }
    }
}

/// A field's raw value as the `data-value` attribute carries it (lists joined by `|`), so a
/// plan can test the state a page shows without reading its text.
pub fn value_attr(v: &Value) -> String {
    match v {
        Value::Array(items) => items.iter().map(scalar_text).collect::<Vec<_>>().join("|"),
        other => scalar_text(other),
    }
}
