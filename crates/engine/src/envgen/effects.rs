//! Performing an action: the form's inputs converted to their fields' types, then the declared
//! effects applied in order to the session's state. Bad input is an [`OpError`] and leaves the
//! state untouched (the caller works on the store's copy and commits only on success).

use serde_json::{Map, Value};

use super::model::{label, scalar_text, Model};
use super::seed::scalar_fit;
use super::spec::{Action, ActionOn, Effect, Entity, Field, FieldType, Input, Op};
use crate::ui::{Ctx, Done, FormData, OpError};

/// The form field carrying the bound record's id.
pub const RECORD: &str = "_record";

/// Performs action `act` of `model` with `form` on `state`.
pub fn apply(
    model: &Model,
    act: &Action,
    form: &FormData,
    ctx: &Ctx,
    state: &mut Value,
) -> Result<Done, OpError> {
    let ent = model
        .entity(&act.entity)
        .ok_or_else(|| OpError(format!("no entity {:?}", act.entity)))?;
    let inputs = read_inputs(model, act, ent, form, state)?;
    let env = Env {
        model,
        ctx,
        user: model.user(state).cloned().unwrap_or(Value::Null),
        inputs,
        nested: nested_ids(ent, state),
    };
    let record = match act.on {
        ActionOn::Collection => create(&env, act, ent, state)?,
        ActionOn::Singleton => {
            let rec = state
                .get_mut(&ent.name)
                .ok_or_else(|| OpError(format!("the state has no {:?}", ent.name)))?;
            for e in &act.effects {
                env.effect(ent, e, rec)?;
            }
            rec.clone()
        }
        ActionOn::Record => on_record(&env, act, ent, form, state)?,
    };
    Ok(done(model, act, &record))
}

fn done(model: &Model, act: &Action, record: &Value) -> Done {
    let mut message = act
        .success
        .clone()
        .unwrap_or_else(|| format!("{}: done", act.label));
    if let Some(obj) = record.as_object() {
        for (k, v) in obj {
            message = message.replace(&format!("{{{k}}}"), &scalar_text(v));
        }
    }
    let go = act
        .go
        .as_deref()
        .and_then(|g| model.view(g))
        .map(|v| Model::url(v, Some(record)));
    Done { message, go }
}

fn on_record(
    env: &Env<'_>,
    act: &Action,
    ent: &Entity,
    form: &FormData,
    state: &mut Value,
) -> Result<Value, OpError> {
    let id = form.required(RECORD)?.to_string();
    let items = state
        .get_mut(&ent.name)
        .and_then(Value::as_array_mut)
        .ok_or_else(|| OpError(format!("the state has no list {:?}", ent.name)))?;
    let at = items
        .iter()
        .position(|r| scalar_text(&r["id"]) == id)
        .ok_or_else(|| {
            OpError(format!(
                "there is no {} {id:?}",
                ent.label.as_deref().unwrap_or(&ent.name)
            ))
        })?;
    if act.effects.iter().any(|e| e.op == Op::Remove) {
        return Ok(items.remove(at));
    }
    for e in &act.effects {
        env.effect(ent, e, &mut items[at])?;
    }
    Ok(items[at].clone())
}

fn create(env: &Env<'_>, act: &Action, ent: &Entity, state: &mut Value) -> Result<Value, OpError> {
    let mut rec = Map::new();
    let id = next_id(ent, Model::records(state, &ent.name));
    for f in ent.fields.iter().map(toml::Spanned::get_ref) {
        let ty = FieldType::parse(&f.ty).unwrap_or(FieldType::String);
        let from_input = act
            .inputs
            .iter()
            .find(|i| i.field.as_deref() == Some(&f.name))
            .and_then(|i| env.inputs.get(i.key()));
        let v = match (ty, from_input, &f.default) {
            (FieldType::Id, _, _) => Value::String(id.clone()),
            (_, Some(v), _) if !v.is_null() || f.optional => v.clone(),
            (_, _, Some(d)) => env.resolve(f, d)?,
            _ if f.optional => Value::Null,
            (FieldType::Refs | FieldType::Tags | FieldType::Records, _, _) => Value::Array(vec![]),
            (FieldType::Bool, _, _) => Value::Bool(false),
            _ => return Err(OpError(format!("{} is required", label(f)))),
        };
        rec.insert(f.name.clone(), v);
    }
    let rec = Value::Object(rec);
    crate::ui::kit::list_mut(state, &ent.name)?.push(rec.clone());
    let _ = act;
    Ok(rec)
}

/// The next id of `ent`: its prefix and one more than the highest number, zero-padded like the
/// existing ids (at least 3 digits).
pub fn next_id(ent: &Entity, items: &[Value]) -> String {
    let prefix = ent.id_prefix.clone().unwrap_or_else(|| {
        ent.name
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_default()
    });
    next_id_with(&prefix, items)
}

/// `prefix` and one more than the highest number among `items`' ids of that prefix.
fn next_id_with(prefix: &str, items: &[Value]) -> String {
    let mut width = 3;
    let mut max = 0u64;
    for r in items {
        let id = scalar_text(&r["id"]);
        if let Some(n) = id
            .strip_prefix(prefix)
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            width = width.max(n.len());
            max = max.max(n.parse().unwrap_or(0));
        }
    }
    format!("{prefix}{:0width$}", max + 1)
}

/// The inputs of a submitted form, each converted to its type.
fn read_inputs(
    model: &Model,
    act: &Action,
    ent: &Entity,
    form: &FormData,
    state: &Value,
) -> Result<Map<String, Value>, OpError> {
    let mut out = Map::new();
    for input in &act.inputs {
        let field = input_field(ent, input);
        let v = convert(model, &field, input.optional, form, input.key(), state)?;
        out.insert(input.key().to_string(), v);
    }
    Ok(out)
}

/// The field an input edits (for a free input, one made from its `type`).
pub fn input_field(ent: &Entity, input: &Input) -> Field {
    let mut f = match input.field.as_deref().and_then(|n| Model::field(ent, n)) {
        Some(f) => f.clone(),
        None => Field {
            name: input.key().into(),
            ty: input.ty.clone().unwrap_or_else(|| "string".into()),
            label: None,
            values: vec![],
            entity: None,
            fields: vec![],
            optional: input.optional,
            default: None,
        },
    };
    if input.label.is_some() {
        f.label = input.label.clone();
    }
    f
}

fn convert(
    model: &Model,
    f: &Field,
    optional: bool,
    form: &FormData,
    name: &str,
    state: &Value,
) -> Result<Value, OpError> {
    let ty = FieldType::parse(&f.ty).unwrap_or(FieldType::String);
    let what = label(f);
    let v = match ty {
        FieldType::Bool => return Ok(Value::Bool(form.checked(name))),
        FieldType::Refs => Value::Array(
            form.all(name)
                .into_iter()
                .map(|s| Value::String(s.into()))
                .collect(),
        ),
        FieldType::Tags => Value::Array(
            form.get(name)
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.into()))
                .collect(),
        ),
        _ => {
            let raw = form.get(name).unwrap_or_default().trim();
            // A text field whose default is empty may be left (or cleared to) empty.
            let empty_ok = f.default.as_ref().and_then(|d| d.as_str()) == Some("");
            if raw.is_empty() && empty_ok && matches!(ty, FieldType::String | FieldType::Text) {
                return Ok(Value::String(String::new()));
            }
            if raw.is_empty() {
                return if optional || f.optional {
                    Ok(Value::Null)
                } else {
                    Err(OpError(format!("{what} cannot be empty")))
                };
            }
            match ty {
                FieldType::Int => raw
                    .parse::<i64>()
                    .map(Value::from)
                    .map_err(|_| OpError(format!("{what} must be a whole number, not {raw:?}")))?,
                FieldType::Number => raw
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .ok_or_else(|| OpError(format!("{what} must be a number, not {raw:?}")))?,
                _ => Value::String(raw.into()),
            }
        }
    };
    scalar_fit(ty, &f.values, &v).map_err(|want| OpError(format!("{what} must be {want}")))?;
    let target = f.entity.as_deref().unwrap_or_default();
    // Only `ref`/`refs` name records; a `tags` list is free text.
    let ids = match ty {
        FieldType::Ref => vec![v.clone()],
        FieldType::Refs => v.as_array().cloned().unwrap_or_default(),
        _ => vec![],
    };
    for id in ids {
        if Model::find(state, target, "id", &scalar_text(&id)).is_none() {
            return Err(OpError(format!(
                "{what}: there is no {target} {}",
                scalar_text(&id)
            )));
        }
    }
    let _ = model;
    Ok(v)
}

struct Env<'a> {
    model: &'a Model,
    ctx: &'a Ctx,
    user: Value,
    inputs: Map<String, Value>,
    /// `records` field → the id its next appended item gets (when it has an `id` sub-field).
    nested: Vec<(String, String)>,
}

/// The next nested id of every `records` field of `ent` with an `id` sub-field: the field's
/// first letter and one more than the highest such number among every record's items
/// (`c001`, `c002`, … for `comments`), unique across the entity.
fn nested_ids(ent: &Entity, state: &Value) -> Vec<(String, String)> {
    ent.fields
        .iter()
        .map(toml::Spanned::get_ref)
        .filter(|f| f.fields.iter().any(|s| s.get_ref().ty == "id"))
        .map(|f| {
            let items: Vec<Value> = Model::records(state, &ent.name)
                .iter()
                .flat_map(|r| r[&f.name].as_array().cloned().unwrap_or_default())
                .collect();
            let prefix: String = f.name.chars().take(1).collect();
            (f.name.clone(), next_id_with(&prefix, &items))
        })
        .collect()
}

impl Env<'_> {
    /// A spec value: `@input`, `$now`, `$today`, `$user` or a literal (converted from TOML).
    fn resolve(&self, f: &Field, v: &toml::Value) -> Result<Value, OpError> {
        if let Some(s) = v.as_str() {
            if let Some(i) = s.strip_prefix('@').filter(|i| !i.starts_with('@')) {
                return self
                    .inputs
                    .get(i)
                    .cloned()
                    .ok_or_else(|| OpError(format!("the form has no input {i:?}")));
            }
            match s {
                "$now" => return Ok(Value::String(self.ctx.today.rfc3339())),
                "$today" => {
                    return Ok(Value::String(
                        self.ctx.today.rfc3339().chars().take(10).collect(),
                    ))
                }
                "$user" => return Ok(self.user.clone()),
                _ => {}
            }
            let unescaped = s
                .strip_prefix('@')
                .or_else(|| s.strip_prefix('$'))
                .filter(|r| r.starts_with(['@', '$']))
                .unwrap_or(s);
            return Ok(Value::String(unescaped.into()));
        }
        serde_json::to_value(v).map_err(|e| OpError(format!("{}: {e}", f.name)))
    }

    fn effect(&self, ent: &Entity, e: &Effect, rec: &mut Value) -> Result<(), OpError> {
        let name = e.field.as_deref().unwrap_or_default();
        let f = Model::field(ent, name).ok_or_else(|| OpError(format!("no field {name:?}")))?;
        let obj = rec
            .as_object_mut()
            .ok_or_else(|| OpError("the record is not an object".into()))?;
        let cur = obj.entry(name.to_string()).or_insert(Value::Null);
        match e.op {
            Op::Set => {
                *cur = self.resolve(
                    f,
                    e.value
                        .as_ref()
                        .unwrap_or(&toml::Value::String(String::new())),
                )?
            }
            Op::Toggle => *cur = Value::Bool(!cur.as_bool().unwrap_or(false)),
            Op::Increment => {
                let by = e.by.unwrap_or(1.0);
                *cur = if FieldType::parse(&f.ty) == Some(FieldType::Int) {
                    Value::from(cur.as_i64().unwrap_or(0) + by as i64)
                } else {
                    serde_json::Number::from_f64(cur.as_f64().unwrap_or(0.0) + by)
                        .map(Value::Number)
                        .unwrap_or(Value::Null)
                };
            }
            Op::Append => self.append(f, e, cur)?,
            Op::RemoveItem => {
                let v = self.resolve(
                    f,
                    e.value
                        .as_ref()
                        .unwrap_or(&toml::Value::String(String::new())),
                )?;
                if let Some(items) = cur.as_array_mut() {
                    items.retain(|x| *x != v);
                }
            }
            Op::Create | Op::Remove => {}
        }
        Ok(())
    }

    /// The id the next nested record of `records` field `f` gets.
    fn nested_id(&self, f: &Field) -> String {
        self.nested
            .iter()
            .find(|(n, _)| *n == f.name)
            .map(|(_, id)| id.clone())
            .unwrap_or_default()
    }

    fn append(&self, f: &Field, e: &Effect, cur: &mut Value) -> Result<(), OpError> {
        if !cur.is_array() {
            *cur = Value::Array(vec![]);
        }
        let item = match &e.record {
            Some(table) => {
                let mut obj = Map::new();
                for sub in f.fields.iter().map(toml::Spanned::get_ref) {
                    let v = match table.get(&sub.name) {
                        Some(v) => self.resolve(sub, v)?,
                        None if sub.ty == "id" => Value::String(self.nested_id(f)),
                        None => Value::Null,
                    };
                    if v.is_null() && !sub.optional {
                        return Err(OpError(format!("{} cannot be empty", label(sub))));
                    }
                    obj.insert(sub.name.clone(), v);
                }
                Value::Object(obj)
            }
            None => self.resolve(
                f,
                e.value
                    .as_ref()
                    .unwrap_or(&toml::Value::String(String::new())),
            )?,
        };
        let items = cur
            .as_array_mut()
            .ok_or_else(|| OpError(format!("{} is not a list", f.name)))?;
        let set_like = e.record.is_none();
        if item.is_null() || (item.as_str() == Some("")) {
            return Err(OpError(format!("{} needs a value", label(f))));
        }
        if !(set_like && items.contains(&item)) {
            items.push(item);
        }
        let _ = self.model;
        Ok(())
    }
}
