//! The generic ui-oracle planner of spec apps: a task's structured slots become a plan through
//! the generic renderer's pages, using only what the spec declares — sidebar link → row link →
//! record page → the action whose inputs cover the changes → its success banner.
//! Templates: `update_records` (every change field must be an input of a record action, a
//! `toggle`d bool, or an `append`ed list), `create_record` (a collection action with `create`),
//! and any template the spec's `[[plans]]` map to a record action (`add_comment`).

use serde_json::{Map, Value};

use super::effects::input_field;
use super::model::{scalar_text, Model};
use super::render::SpecUi;
use super::spec::{Action, ActionOn, Entity, FieldType, Op, View, ViewKind};
use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{
    click, css, done, fill, form_value, form_values, submit, unless, wait,
};
use crate::rollout::ui_plan::PlanRefusal;
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::ui::AppUi;

/// The planner of one spec app.
pub struct SpecPlanner {
    ui: &'static SpecUi,
    apps: [&'static str; 1],
}

impl SpecPlanner {
    /// The planner of the app `ui` serves.
    pub fn new(ui: &'static SpecUi) -> SpecPlanner {
        SpecPlanner {
            ui,
            apps: [ui.app()],
        }
    }

    fn model(&self) -> &Model {
        self.ui.model()
    }
}

impl UiPlanner for SpecPlanner {
    fn apps(&self) -> &[&'static str] {
        &self.apps
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let t = &brief.structured;
        let slots = &t["slots"];
        match t["template"].as_str().unwrap_or_default() {
            "update_records" => update_records(self.model(), slots),
            "create_record" => create_record(self.model(), slots),
            other => planned(self.model(), other, slots),
        }
        .map_err(PlanRefusal::new)
    }
}

/// Opens view `v` from its sidebar link.
pub fn open_view(v: &View) -> Vec<PlanStep> {
    vec![
        submit(css(format!("#nav-{}", v.name))),
        wait(super::check::landed(v, None)),
    ]
}

fn entity<'m>(m: &'m Model, slots: &Value) -> Result<&'m Entity, String> {
    let name = slots["collection"].as_str().unwrap_or_default();
    m.entity(name)
        .ok_or_else(|| format!("{}: no entity {name:?}", m.name()))
}

/// From anywhere to the record page of `key` (its `key_field`): a sidebar view listing the
/// entity without a filter, the row's link, then the page.
pub fn open_record(
    m: &Model,
    ent: &Entity,
    key_field: &str,
    key: &str,
    record_view: &View,
) -> Result<Vec<PlanStep>, String> {
    let list = m
        .views()
        .find(|v| {
            v.nav.is_some()
                && v.filter.is_none()
                && v.entity.as_deref() == Some(&ent.name)
                && v.open.as_deref() == Some(&record_view.name)
                && matches!(
                    v.kind,
                    ViewKind::Table | ViewKind::List | ViewKind::Inbox | ViewKind::Board
                )
        })
        .ok_or_else(|| {
            format!(
                "{}: no sidebar view lists {} with links to {}",
                m.name(),
                ent.name,
                record_view.name
            )
        })?;
    let mut p = open_view(list);
    // The row link's id carries the record id; a task names the record by its key field.
    let sel = if key_field == "id" {
        format!("#{}-open-{key}", list.name)
    } else {
        format!("[data-id] a.open[href$=\"/{}\"]", super::model::encode(key))
    };
    let route_field = Model::route_field(record_view).unwrap_or("id");
    if route_field != key_field && key_field != "id" {
        return Err(format!(
            "{}: the record view {} is addressed by {route_field}, the task by {key_field}",
            m.name(),
            record_view.name
        ));
    }
    p.push(submit(css(sel)));
    // What the record page draws its record as: a document view its body, the others a list.
    let drawn = if record_view.kind == super::spec::ViewKind::Document {
        "article.document"
    } else {
        "dl.fields"
    };
    p.push(wait(format!(
        "body[data-path^=\"{}\"] {drawn}",
        record_view.route.split('{').next().unwrap_or("/")
    )));
    Ok(p)
}

/// The record view of `ent` offering the most actions.
fn record_view<'m>(m: &'m Model, ent: &Entity) -> Result<&'m View, String> {
    m.views()
        .filter(|v| v.kind.is_record() && v.entity.as_deref() == Some(&ent.name))
        .max_by_key(|v| v.actions.len())
        .ok_or_else(|| format!("{}: no record view of {}", m.name(), ent.name))
}

fn update_records(m: &Model, slots: &Value) -> Result<Vec<PlanStep>, String> {
    let ent = entity(m, slots)?;
    let key_field = slots["key_field"].as_str().unwrap_or("id");
    let view = record_view(m, ent)?;
    let changes = slots["changes"].as_object().cloned().unwrap_or_default();
    let mut plan = Vec::new();
    for key in slots["keys"].as_array().into_iter().flatten() {
        let key = scalar_text(key);
        plan.extend(open_record(m, ent, key_field, &key, view)?);
        plan.extend(change_steps(m, ent, view, &changes)?);
    }
    Ok(plan)
}

/// The steps that make `changes` on the open record page of `view`.
fn change_steps(
    m: &Model,
    ent: &Entity,
    view: &View,
    changes: &Map<String, Value>,
) -> Result<Vec<PlanStep>, String> {
    let actions: Vec<&Action> = view
        .actions
        .iter()
        .filter_map(|n| m.action(n))
        .filter(|a| a.on == ActionOn::Record)
        .collect();
    let mut forms: Vec<(&Action, Vec<PlanStep>)> = Vec::new();
    let mut extra = Vec::new();
    for (field, v) in changes {
        if let Some(list_field) = field.strip_suffix('+') {
            let a = find_effect(&actions, Op::Append, list_field)
                .ok_or_else(|| format!("{}: no action appends to {list_field}", m.name()))?;
            for item in form_values(v) {
                let form = format!("{}-{}", view.name, a.name);
                let input = a
                    .inputs
                    .first()
                    .map(|i| i.key().to_string())
                    .unwrap_or_default();
                extra.push(unless(css(format!("dd[data-field=\"{list_field}\"][data-value~=\"{item}\"], dd[data-field=\"{list_field}\"][data-value=\"{item}\"]")), vec![fill(css(format!("#{form}-{input}")), &item), submit(css(format!("#{form}-submit"))), done(&a.name)]));
            }
            continue;
        }
        if let Some(a) = actions.iter().find(|a| {
            a.inputs.iter().any(|i| i.field.as_deref() == Some(field)) && sets_from_input(a, field)
        }) {
            let input = a
                .inputs
                .iter()
                .find(|i| i.field.as_deref() == Some(field))
                .ok_or("input")?;
            let step = input_step(ent, &format!("{}-{}", view.name, a.name), input, v);
            match forms.iter_mut().find(|(x, _)| x.name == a.name) {
                Some((_, steps)) => steps.push(step),
                None => forms.push((a, vec![step])),
            }
            continue;
        }
        if let Some(a) = find_effect(&actions, Op::Toggle, field) {
            let want = v.as_bool().unwrap_or(false);
            extra.push(unless(
                css(format!("dd[data-field=\"{field}\"][data-value=\"{want}\"]")),
                vec![
                    submit(css(format!("#{}-{}-submit", view.name, a.name))),
                    done(&a.name),
                ],
            ));
            continue;
        }
        return Err(format!(
            "{}: no action on {} changes {}.{field}",
            m.name(),
            view.name,
            ent.name
        ));
    }
    let mut plan = Vec::new();
    for (a, steps) in forms {
        plan.extend(steps);
        plan.push(submit(css(format!("#{}-{}-submit", view.name, a.name))));
        plan.push(done(&a.name));
    }
    plan.extend(extra);
    Ok(plan)
}

fn sets_from_input(a: &Action, field: &str) -> bool {
    a.effects.iter().any(|e| {
        e.op == Op::Set
            && e.field.as_deref() == Some(field)
            && e.value
                .as_ref()
                .and_then(|v| v.as_str())
                .is_some_and(|s| s.starts_with('@'))
    })
}

fn find_effect<'a>(actions: &[&'a Action], op: Op, field: &str) -> Option<&'a Action> {
    actions.iter().copied().find(|a| {
        a.effects
            .iter()
            .any(|e| e.op == op && e.field.as_deref() == Some(field))
    })
}

/// The step that puts `v` into input `input` of form `form`.
pub fn input_step(ent: &Entity, form: &str, input: &super::spec::Input, v: &Value) -> PlanStep {
    let f = input_field(ent, input);
    let id = format!("{form}-{}", input.key());
    match FieldType::parse(&f.ty) {
        Some(FieldType::Enum | FieldType::Ref) => {
            click(css(format!("#{id} input[value=\"{}\"]", form_value(v))))
        }
        Some(FieldType::Bool) => {
            let want = v.as_bool().unwrap_or(false);
            let sel = if want {
                format!("#{id}:checked")
            } else {
                format!("#{id}:not(:checked)")
            };
            unless(css(sel), vec![click(css(format!("#{id}")))])
        }
        Some(FieldType::Tags) => fill(css(format!("#{id}")), &form_values(v).join(", ")),
        // Checkboxes: tick each wanted record not ticked yet (`#id[data-never]` is never on
        // the page, so the group always runs).
        Some(FieldType::Refs) => unless(
            css(format!("#{id}[data-never]")),
            form_values(v)
                .iter()
                .map(|x| {
                    let sel = format!("#{id} input[value=\"{x}\"]");
                    unless(css(format!("{sel}:checked")), vec![click(css(sel))])
                })
                .collect(),
        ),
        _ => fill(css(format!("#{id}")), &form_value(v)),
    }
}

fn create_record(m: &Model, slots: &Value) -> Result<Vec<PlanStep>, String> {
    let ent = entity(m, slots)?;
    let (view, act) = m
        .views()
        .filter(|v| v.nav.is_some())
        .find_map(|v| {
            v.actions
                .iter()
                .filter_map(|n| m.action(n))
                .find(|a| a.on == ActionOn::Collection && a.entity == ent.name)
                .map(|a| (v, a))
        })
        .ok_or_else(|| format!("{}: no sidebar page creates {}", m.name(), ent.name))?;
    let record = slots["record"].as_object().cloned().unwrap_or_default();
    let mut plan = open_view(view);
    let form = format!("{}-{}", view.name, act.name);
    for input in &act.inputs {
        if let Some(v) = input.field.as_deref().and_then(|f| record.get(f)) {
            plan.push(input_step(ent, &form, input, v));
        }
    }
    plan.push(submit(css(format!("#{form}-submit"))));
    plan.push(done(&act.name));
    Ok(plan)
}

/// The plan of an app-specific template by the spec's `[[plans]]` rule for it: the record the
/// rule's `record` slot names, the action's inputs filled from their slots, submitted.
fn planned(m: &Model, template: &str, slots: &Value) -> Result<Vec<PlanStep>, String> {
    // A task may name a pack's template as `<app>/<name>` (`issue-tracker/add_comment`).
    let name = template.rsplit('/').next().unwrap_or(template);
    let rule = m
        .spec
        .plans
        .iter()
        .map(toml::Spanned::get_ref)
        .find(|p| p.template == name)
        .ok_or_else(|| format!("{}: no plan for template {template:?}", m.name()))?;
    let act = m
        .action(&rule.action)
        .ok_or_else(|| format!("{}: no action {:?}", m.name(), rule.action))?;
    let ent = m
        .entity(&act.entity)
        .ok_or_else(|| format!("{}: no entity {:?}", m.name(), act.entity))?;
    let view = m
        .views()
        .filter(|v| v.kind.is_record() && v.actions.contains(&act.name))
        .max_by_key(|v| v.actions.len())
        .ok_or_else(|| format!("{}: no record view offers {}", m.name(), act.name))?;
    let key_field = Model::route_field(view).unwrap_or("id");
    let key = scalar_text(&slots[&rule.record]);
    let mut plan = open_record(m, ent, key_field, &key, view)?;
    let form = format!("{}-{}", view.name, act.name);
    for input in &act.inputs {
        if let Some(slot) = rule.inputs.get(input.key()) {
            plan.push(input_step(ent, &form, input, &slots[slot]));
        }
    }
    plan.push(submit(css(format!("#{form}-submit"))));
    plan.push(done(&act.name));
    Ok(plan)
}
