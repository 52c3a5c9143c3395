//! Views of many records: list, table, board, calendar, inbox, dashboard, form.

use maud::{html, Markup};
use serde_json::Value;

use super::super::model::{label, scalar_text, Model};
use super::super::spec::{ActionOn, Condition, Entity, Field, View, ViewKind};
use super::form::action_form;

/// The records of `view` after its filter and sort.
pub fn records<'s>(model: &Model, state: &'s Value, view: &View) -> Vec<&'s Value> {
    let Some(ent) = view.entity.as_deref() else {
        return vec![];
    };
    let mut out: Vec<&Value> = Model::records(state, ent)
        .iter()
        .filter(|r| matches(model, state, view.filter.as_ref(), r))
        .collect();
    if let Some(sort) = &view.sort {
        let (field, desc) = match sort.strip_prefix('-') {
            Some(f) => (f, true),
            None => (sort.as_str(), false),
        };
        out.sort_by(|a, b| {
            let (x, y) = (scalar_text(&a[field]), scalar_text(&b[field]));
            // Blank sorts last either way.
            let o = (x.is_empty(), &x).cmp(&(y.is_empty(), &y));
            if desc && !x.is_empty() && !y.is_empty() {
                o.reverse()
            } else {
                o
            }
        });
    }
    out
}

/// Whether `r` satisfies condition `c` (`$user` = the signed-in user).
pub fn matches(model: &Model, state: &Value, c: Option<&Condition>, r: &Value) -> bool {
    let Some(c) = c else { return true };
    let want = match c.value.as_str() {
        Some("$user") => model.user(state).cloned().unwrap_or(Value::Null),
        _ => serde_json::to_value(&c.value).unwrap_or(Value::Null),
    };
    r[&c.field] == want
}

/// The fields a view shows.
pub fn shown<'e>(ent: &'e Entity, view: &View) -> Vec<&'e Field> {
    if view.fields.is_empty() {
        ent.fields
            .iter()
            .map(toml::Spanned::get_ref)
            .filter(|f| f.name != "id")
            .collect()
    } else {
        view.fields
            .iter()
            .filter_map(|n| Model::field(ent, n))
            .collect()
    }
}

/// The title of record `r`, linked to its record view when the view has `open`. A blank title
/// reads as the record's label and id (a link with no text has no box: nobody can click it).
fn title_link(model: &Model, view: &View, ent: &Entity, r: &Value) -> Markup {
    let mut title = Model::title_of(ent, r);
    if title.trim().is_empty() {
        let what = ent.label.as_deref().unwrap_or(ent.name.as_str());
        title = format!("{what} {}", scalar_text(&r["id"]));
    }
    let id = format!("{}-open-{}", view.name, scalar_text(&r["id"]));
    match view.open.as_deref().and_then(|o| model.view(o)) {
        Some(target) => {
            html! { a.open id=(id) data-el=(id) href=(Model::url(target, Some(r))) { (title) } }
        }
        None => html! { span.title { (title) } },
    }
}

/// Buttons of the view's input-less record actions for row `r`.
fn row_actions(model: &Model, state: &Value, view: &View, path: &str, r: &Value) -> Markup {
    html! {
        @for a in view.actions.iter().filter_map(|n| model.action(n)).filter(|a| a.on == ActionOn::Record) {
            span.row-action { (action_form(model, state, &view.name, path, a, Some(r), true)) }
        }
    }
}

/// The collection actions' forms of the view (a create form).
fn collection_forms(model: &Model, state: &Value, view: &View, path: &str) -> Markup {
    html! {
        @for a in view.actions.iter().filter_map(|n| model.action(n)).filter(|a| a.on == ActionOn::Collection) {
            (action_form(model, state, &view.name, path, a, None, false))
        }
    }
}

/// The page body of a collection view.
pub fn body(model: &Model, state: &Value, view: &View, path: &str, today: &str) -> Markup {
    let forms = collection_forms(model, state, view, path);
    let Some(ent) = view.entity.as_deref().and_then(|e| model.entity(e)) else {
        return html! { (dashboard(model, state, view)) (forms) };
    };
    let rows = records(model, state, view);
    let content = match view.kind {
        ViewKind::Table => table(model, state, view, ent, &rows, path),
        ViewKind::Board => board(model, state, view, ent, &rows, path),
        ViewKind::Calendar => calendar(model, view, ent, &rows, today),
        ViewKind::Form => html! {},
        _ => cards(model, state, view, ent, &rows, path),
    };
    html! { (forms) (content) }
}

fn table(
    model: &Model,
    state: &Value,
    view: &View,
    ent: &Entity,
    rows: &[&Value],
    path: &str,
) -> Markup {
    let fields = shown(ent, view);
    let title = Model::title_field(ent);
    // A table that opens records but does not show their title gets a title column first,
    // so every row has its link (hr's time-off table listed no `note`: no row could be opened).
    let lead = (view.open.is_some() && !fields.iter().any(|f| f.name == title))
        .then(|| Model::field(ent, title))
        .flatten();
    html! {
        table data-entity=(ent.name) {
            thead { tr { @if let Some(f) = lead { th { (label(f)) } } @for f in &fields { th { (label(f)) } } th {} } }
            tbody {
                @for r in rows {
                    tr data-id=(scalar_text(&r["id"])) {
                        @if lead.is_some() { td data-field=(title) { (title_link(model, view, ent, r)) } }
                        @for f in &fields {
                            td data-field=(f.name) {
                                @if f.name == title { (title_link(model, view, ent, r)) } @else { (model.display(state, f, &r[&f.name])) }
                            }
                        }
                        td { (row_actions(model, state, view, path, r)) }
                    }
                }
            }
        }
    }
}

fn card(model: &Model, state: &Value, view: &View, ent: &Entity, r: &Value, path: &str) -> Markup {
    let title = Model::title_field(ent);
    let unread = view
        .unread_field
        .as_deref()
        .is_some_and(|f| r[f].as_bool() != Some(true));
    html! {
        li.card.unread[unread] data-id=(scalar_text(&r["id"])) {
            (title_link(model, view, ent, r))
            @for f in shown(ent, view).into_iter().filter(|f| f.name != title) {
                div.line data-field=(f.name) { (label(f)) ": " (model.display(state, f, &r[&f.name])) }
            }
            (row_actions(model, state, view, path, r))
        }
    }
}

fn cards(
    model: &Model,
    state: &Value,
    view: &View,
    ent: &Entity,
    rows: &[&Value],
    path: &str,
) -> Markup {
    html! { ul.cards data-entity=(ent.name) { @for r in rows { (card(model, state, view, ent, r, path)) } } }
}

fn board(
    model: &Model,
    state: &Value,
    view: &View,
    ent: &Entity,
    rows: &[&Value],
    path: &str,
) -> Markup {
    let by = view.group_by.as_deref().unwrap_or_default();
    let columns = Model::field(ent, by)
        .map(|f| f.values.clone())
        .unwrap_or_default();
    html! {
        div.board data-entity=(ent.name) {
            @for c in &columns {
                section.column data-column=(c) aria-label=(c) {
                    h2 { (c) }
                    ul.cards { @for r in rows.iter().filter(|r| r[by].as_str() == Some(c.as_str())) { (card(model, state, view, ent, r, path)) } }
                }
            }
        }
    }
}

fn calendar(model: &Model, view: &View, ent: &Entity, rows: &[&Value], today: &str) -> Markup {
    let month = view
        .month
        .clone()
        .unwrap_or_else(|| today.chars().take(7).collect());
    let field = view.date_field.as_deref().unwrap_or_default();
    let first = chrono::NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").ok();
    let Some(first) = first else {
        return html! { p { "No month " (month) } };
    };
    use chrono::Datelike;
    let lead = first.weekday().num_days_from_monday();
    let days: Vec<chrono::NaiveDate> = first
        .iter_days()
        .take_while(|d| d.month() == first.month())
        .collect();
    html! {
        h2.month-name { (first.format("%B %Y")) }
        div.month data-entity=(ent.name) {
            @for _ in 0..lead { div.day.blank {} }
            @for d in &days {
                @let key = d.format("%Y-%m-%d").to_string();
                div.day data-date=(key) {
                    div.n { (d.day()) }
                    @for r in rows.iter().filter(|r| scalar_text(&r[field]).starts_with(&key)) {
                        div.event { (title_link(model, view, ent, r)) }
                    }
                }
            }
        }
    }
}

fn dashboard(model: &Model, state: &Value, view: &View) -> Markup {
    html! {
        div.metrics {
            @for m in &view.metrics {
                @let n = Model::records(state, &m.entity).iter().filter(|r| matches(model, state, m.condition.as_ref(), r)).count();
                div.metric data-metric=(m.label) { div.value { (n) } div.label { (m.label) } }
            }
        }
    }
}
