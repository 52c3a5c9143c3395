//! Shipped tasks derived from a spec and its seed: for every record action that sets fields from
//! its inputs, toggles a bool or appends to a tag list, `update_records` tasks on seed records
//! with a value the record does not hold yet; for every create action, `create_record` tasks.
//! Deterministic (same spec and seed, same tasks); the `_common` templates' rewards score them.

use serde_json::{json, Map, Value};

use super::effects::next_id;
use super::model::{label, scalar_text, Model};
use super::spec::{Action, ActionOn, Entity, Field, FieldType, Op};

/// How many tasks a spec app ships at most.
pub const MAX_TASKS: usize = 24;

/// The derived tasks of `model` over `seed` (a `{"tasks": [...]}` document).
pub fn derive(model: &Model, seed: &Value) -> Value {
    let mut edits: Vec<Value> = Vec::new();
    let mut creates: Vec<Value> = Vec::new();
    for a in model.actions() {
        let Some(ent) = model.entity(&a.entity) else {
            continue;
        };
        match a.on {
            ActionOn::Record => edits.extend(update_tasks(model, seed, a, ent)),
            ActionOn::Collection => creates.extend(create_tasks(model, seed, a, ent)),
            ActionOn::Singleton => {}
        }
    }
    // Interleave so every action is represented before the cap cuts.
    let mut tasks = Vec::new();
    let (mut e, mut c) = (edits.into_iter(), creates.into_iter());
    while tasks.len() < MAX_TASKS {
        let (x, y) = (e.next(), c.next());
        if x.is_none() && y.is_none() {
            break;
        }
        tasks.extend(x.into_iter().chain(y).chain(e.next()));
    }
    tasks.truncate(MAX_TASKS);
    for (i, t) in tasks.iter_mut().enumerate() {
        t["task_id"] = json!(format!("{}_{:03}", model.name().replace('-', "_"), i + 1));
    }
    json!({ "tasks": tasks })
}

/// A value for field `f` that differs from `cur` (`n` varies the choice), or `None`.
fn other_value(_model: &Model, seed: &Value, f: &Field, cur: &Value, n: usize) -> Option<Value> {
    let ty = FieldType::parse(&f.ty)?;
    let pick = |options: Vec<Value>| -> Option<Value> {
        let options: Vec<Value> = options.into_iter().filter(|o| o != cur).collect();
        options.get(n % options.len().max(1)).cloned()
    };
    match ty {
        FieldType::Enum => pick(f.values.iter().map(|v| json!(v)).collect()),
        FieldType::Ref => pick(
            Model::records(seed, f.entity.as_deref()?)
                .iter()
                .map(|r| r["id"].clone())
                .collect(),
        ),
        FieldType::Bool => Some(json!(!cur.as_bool().unwrap_or(false))),
        FieldType::Int => Some(json!(cur.as_i64().unwrap_or(0) + 1 + n as i64)),
        FieldType::Number => Some(json!(cur.as_f64().unwrap_or(0.0) + 1.0 + n as f64)),
        FieldType::Date => {
            let d =
                chrono::NaiveDate::parse_from_str(cur.as_str().unwrap_or("2026-03-02"), "%Y-%m-%d")
                    .ok()?;
            Some(json!((d + chrono::Days::new(7 + n as u64))
                .format("%Y-%m-%d")
                .to_string()))
        }
        FieldType::Email => {
            let (local, domain) = cur.as_str()?.split_once('@')?;
            Some(json!(format!("{local}+{}@{domain}", n + 1)))
        }
        FieldType::Datetime => {
            let t = chrono::DateTime::parse_from_rfc3339(
                cur.as_str().unwrap_or("2026-03-02T09:00:00Z"),
            )
            .ok()?;
            let moved = t.with_timezone(&chrono::Utc) + chrono::Days::new(7 + n as u64);
            Some(json!(moved.format("%Y-%m-%dT%H:%M:%SZ").to_string()))
        }
        FieldType::String | FieldType::Text => {
            Some(json!(format!("{} (revised {})", scalar_text(cur), n + 1)
                .trim_start()
                .to_string()))
        }
        _ => None,
    }
    .filter(|v| v != cur)
}

/// The changeable fields of a record action: (slot field, the spec field, how).
fn targets<'e>(a: &Action, ent: &'e Entity) -> Vec<(&'e Field, Op)> {
    let mut out = Vec::new();
    for e in &a.effects {
        let Some(f) = e.field.as_deref().and_then(|n| Model::field(ent, n)) else {
            continue;
        };
        let from_input = e
            .value
            .as_ref()
            .and_then(|v| v.as_str())
            .is_some_and(|s| s.starts_with('@') && !s.starts_with("@@"));
        let ty = FieldType::parse(&f.ty);
        match e.op {
            Op::Set
                if from_input
                    && ty != Some(FieldType::Id)
                    && !matches!(
                        ty,
                        Some(FieldType::Tags | FieldType::Refs | FieldType::Records)
                    ) =>
            {
                out.push((f, Op::Set))
            }
            Op::Toggle => out.push((f, Op::Toggle)),
            Op::Append if ty == Some(FieldType::Tags) => out.push((f, Op::Append)),
            _ => {}
        }
    }
    out
}

/// The tasks action `action` yields over `seed` (what the generic recipe samples from).
pub fn for_action(model: &Model, seed: &Value, action: &str) -> Vec<Value> {
    let Some(a) = model.action(action) else {
        return vec![];
    };
    let Some(ent) = model.entity(&a.entity) else {
        return vec![];
    };
    match a.on {
        ActionOn::Record => update_tasks(model, seed, a, ent),
        ActionOn::Collection => create_tasks(model, seed, a, ent),
        ActionOn::Singleton => vec![],
    }
}

fn update_tasks(model: &Model, seed: &Value, a: &Action, ent: &Entity) -> Vec<Value> {
    let records = Model::records(seed, &ent.name);
    let key_field = Model::key_field(ent);
    let noun = ent
        .label
        .clone()
        .unwrap_or_else(|| ent.name.clone())
        .to_lowercase();
    let mut out = Vec::new();
    for (i, (f, op)) in targets(a, ent).into_iter().enumerate() {
        for k in 0..3 {
            let Some(r) = records.get((i * 3 + k * 5 + 1) % records.len().max(1)) else {
                continue;
            };
            // An instruction names its record by title: a title two records share (two
            // submissions by one student) names neither for sure.
            let title = Model::title_of(ent, r);
            if records
                .iter()
                .filter(|o| Model::title_of(ent, o) == title)
                .count()
                > 1
            {
                continue;
            }
            let (change_key, value, phrase) = match op {
                Op::Append => {
                    let tag = ["urgent", "follow-up", "blocked"][(i + k) % 3];
                    if r[&f.name]
                        .as_array()
                        .is_some_and(|xs| xs.contains(&json!(tag)))
                    {
                        continue;
                    }
                    (
                        format!("{}+", f.name),
                        json!([tag]),
                        format!("add {tag:?} to its {}", label(f).to_lowercase()),
                    )
                }
                _ => {
                    let Some(v) = other_value(model, seed, f, &r[&f.name], i + k) else {
                        continue;
                    };
                    let shown = model.display(seed, f, &v);
                    let phrase = match v.as_bool() {
                        Some(on) => format!(
                            "turn {} {}",
                            label(f).to_lowercase(),
                            if on { "on" } else { "off" }
                        ),
                        None => format!("set its {} to {shown:?}", label(f).to_lowercase()),
                    };
                    (f.name.clone(), v, phrase)
                }
            };
            let key = r[key_field].clone();
            let instruction = format!(
                "In {}, open the {noun} {title:?} and {phrase}.",
                model.spec.app.title
            );
            let mut changes = Map::new();
            changes.insert(change_key.clone(), value.clone());
            out.push(task(model, "update_records", &instruction, &format!("Ground truth: {} {} has {change_key} = {value} (action {}).", ent.name, scalar_text(&key), a.name), json!({
                "app": model.name(), "collection": ent.name, "key_field": key_field, "keys": [key], "changes": changes,
            })));
        }
    }
    out
}

fn create_tasks(model: &Model, seed: &Value, a: &Action, ent: &Entity) -> Vec<Value> {
    let records = Model::records(seed, &ent.name);
    let title_field = Model::title_field(ent).to_string();
    let noun = ent
        .label
        .clone()
        .unwrap_or_else(|| ent.name.clone())
        .to_lowercase();
    let mut out = Vec::new();
    for n in 0..4 {
        let mut record = Map::new();
        let mut expect = Map::new();
        let mut parts = Vec::new();
        record.insert("id".into(), json!(next_id(ent, records)));
        for input in &a.inputs {
            let Some(f) = input
                .field
                .as_deref()
                .and_then(|name| Model::field(ent, name))
            else {
                continue;
            };
            let v = if f.name == title_field {
                json!(format!(
                    "{} {}",
                    ["Prepare", "Review", "Follow up on", "Plan"][n],
                    [
                        "the launch notes",
                        "the vendor contract",
                        "the onboarding checklist",
                        "the budget draft"
                    ][n]
                ))
            } else if input.optional && n % 2 == 1 {
                continue;
            } else {
                let base = records
                    .get(n % records.len().max(1))
                    .map(|r| r[&f.name].clone())
                    .unwrap_or(Value::Null);
                match other_value(model, seed, f, &base, n) {
                    Some(v) => v,
                    None => continue,
                }
            };
            if f.name != title_field {
                parts.push(format!(
                    "{} {:?}",
                    label(f).to_lowercase(),
                    model.display(seed, f, &v)
                ));
                expect.insert(f.name.clone(), v.clone());
            }
            record.insert(f.name.clone(), v);
        }
        let Some(title) = record.get(&title_field).cloned() else {
            continue;
        };
        let with = if parts.is_empty() {
            String::new()
        } else {
            format!(" with {}", parts.join(", "))
        };
        let instruction = format!(
            "In {}, create a {noun} {:?}{with}.",
            model.spec.app.title,
            scalar_text(&title)
        );
        if expect.is_empty() {
            expect.insert(title_field.clone(), title.clone());
        }
        out.push(task(model, "create_record", &instruction, &format!("Ground truth: a new {} record titled {title} (action {}).", ent.name, a.name), json!({
            "app": model.name(), "collection": ent.name, "record": record, "identify": { title_field.clone(): title }, "expect": expect,
        })));
    }
    out
}

fn task(model: &Model, template: &str, instruction: &str, context: &str, slots: Value) -> Value {
    let n = slots["changes"].as_object().map(Map::len).unwrap_or(1);
    json!({
        "task_id": "",
        "task_instruction": instruction,
        "context": context,
        "difficulty": if n > 1 || template == "create_record" { "medium" } else { "easy" },
        "domain": model.name(),
        "domains": [model.name()],
        "platform": "web",
        "scenario": model.spec.app.category,
        "task_type": "single_app",
        "template": template,
        "slots": slots,
    })
}
