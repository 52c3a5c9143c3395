//! Action forms and their input widgets, with the stable element ids of the layout tree.

use maud::{html, Markup, PreEscaped};
use serde_json::Value;

use super::super::effects::{input_field, RECORD};
use super::super::model::{label, list, scalar_text, Model};
use super::super::spec::{Action, ActionOn, Field, FieldType};
use crate::ui::page::back;

/// The id of action `act`'s form on view `view` (`record`: a row's form).
pub fn form_id(view: &str, act: &str, record: Option<&str>) -> String {
    match record {
        Some(r) => format!("{view}-{act}-{r}"),
        None => format!("{view}-{act}"),
    }
}

/// The form of `act` on the page at `path` of view `view`, bound to `record` (a record action),
/// its inputs pre-filled from the record (or blank for a create).
pub fn action_form(
    model: &Model,
    state: &Value,
    view: &str,
    path: &str,
    act: &Action,
    record: Option<&Value>,
    row: bool,
) -> Markup {
    let rid = record
        .filter(|_| act.on == ActionOn::Record)
        .map(|r| scalar_text(&r["id"]));
    let id = form_id(view, &act.name, rid.as_deref().filter(|_| row));
    let ent = model.entity(&act.entity);
    html! {
        form.action id=(id) data-el=(id) data-action=(act.name) method="post" action={ "/op/" (act.name) } autocomplete="off" {
            @if let Some(w) = &act.widget {
                div.widget { (PreEscaped(w.replace("{id}", rid.as_deref().unwrap_or_default()))) }
            }
            (back(path))
            @if let Some(r) = &rid { input type="hidden" name=(RECORD) value=(r); }
            @if let (Some(ent), None) = (ent, &act.widget) {
                @for input in &act.inputs {
                    @let f = input_field(ent, input);
                    @let current = input.field.as_deref().and_then(|n| record.map(|r| &r[n]));
                    (widget(model, state, &id, input.key(), &f, current))
                }
            }
            button type="submit" id={ (id) "-submit" } data-el={ (id) "-submit" } { (act.label) }
        }
    }
}

/// One input: a labelled widget named `name` for field `f`, holding `current`.
fn widget(
    model: &Model,
    state: &Value,
    form: &str,
    name: &str,
    f: &Field,
    current: Option<&Value>,
) -> Markup {
    let id = format!("{form}-{name}");
    let text = current.map(|v| display_value(f, v)).unwrap_or_default();
    let ty = FieldType::parse(&f.ty).unwrap_or(FieldType::String);
    let lab = label(f);
    match ty {
        FieldType::Enum => {
            let choices: Vec<(String, String)> =
                f.values.iter().map(|v| (v.clone(), v.clone())).collect();
            radios(&id, name, &lab, &choices, &text, f.optional)
        }
        FieldType::Ref => {
            let target = f.entity.as_deref().and_then(|t| model.entity(t));
            let choices: Vec<(String, String)> = target
                .map(|t| {
                    Model::records(state, &t.name)
                        .iter()
                        .map(|r| (scalar_text(&r["id"]), Model::title_of(t, r)))
                        .collect()
                })
                .unwrap_or_default();
            radios(&id, name, &lab, &choices, &text, f.optional)
        }
        FieldType::Refs => {
            let target = f.entity.as_deref().and_then(|t| model.entity(t));
            let held: Vec<String> = current
                .map(|v| list(v).iter().map(scalar_text).collect())
                .unwrap_or_default();
            html! {
                fieldset.checks id=(id) data-el=(id) {
                    legend { (lab) }
                    @if let Some(t) = target {
                        @for r in Model::records(state, &t.name) {
                            @let v = scalar_text(&r["id"]);
                            label.choice { input type="checkbox" name=(name) value=(v) checked[held.contains(&v)]; (Model::title_of(t, r)) }
                        }
                    }
                }
            }
        }
        FieldType::Bool => html! {
            div.check {
                input type="checkbox" id=(id) data-el=(id) name=(name) value="true" checked[current.and_then(Value::as_bool) == Some(true)];
                label for=(id) { (lab) }
            }
        },
        FieldType::Text => html! {
            label for=(id) { (lab) }
            textarea id=(id) data-el=(id) name=(name) rows="4" { (text) }
        },
        FieldType::Int | FieldType::Number => html! {
            label for=(id) { (lab) }
            input type="number" step=(if ty == FieldType::Int { "1" } else { "any" }) id=(id) data-el=(id) name=(name) value=(text);
        },
        _ => html! {
            label for=(id) { (lab) }
            input type="text" id=(id) data-el=(id) name=(name) value=(text)
                placeholder=[match ty { FieldType::Date => Some("YYYY-MM-DD"), FieldType::Tags => Some("comma, separated"), _ => None }];
        },
    }
}

/// A radio group: one radio per choice, each named by its label; `optional` adds "None".
fn radios(
    id: &str,
    name: &str,
    legend: &str,
    choices: &[(String, String)],
    current: &str,
    optional: bool,
) -> Markup {
    html! {
        fieldset.radios id=(id) data-el=(id) {
            legend { (legend) }
            @if optional {
                label.choice { input type="radio" name=(name) value="" checked[current.is_empty()]; "None" }
            }
            @for (value, text) in choices {
                label.choice { input type="radio" name=(name) value=(value) checked[value == current]; (text) }
            }
        }
    }
}

/// A field's current value as its input holds it (tags comma-separated).
pub fn display_value(f: &Field, v: &Value) -> String {
    match FieldType::parse(&f.ty) {
        Some(FieldType::Tags) => list(v)
            .iter()
            .map(scalar_text)
            .collect::<Vec<_>>()
            .join(", "),
        _ => scalar_text(v),
    }
}
