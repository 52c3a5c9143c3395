//! The seed check: a spec's seed data must fit the schema its entities declare — exactly the
//! declared top-level keys, every record's fields typed, required fields present, no unknown
//! fields, enum values allowed, refs resolving to existing ids. A violation names the seed file
//! and the line of the offending value.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use toml::Spanned;

use super::error::{Problem, SpecError};
use super::spec::{Entity, EntityKind, Field, FieldType, Spec};

/// Parses `text` (the seed read from `path`) and checks it against `spec`.
pub fn check(spec: &Spec, path: &Path, text: &str) -> Result<Value, SpecError> {
    let seed: Value = serde_json::from_str(text)
        .map_err(|e| SpecError::at(path, e.line(), Problem::Syntax, e.to_string()))?;
    let fail = |at: &[Seg], detail: String| {
        SpecError::at(path, line_at(text, at), Problem::SeedViolation, detail)
    };
    let Some(obj) = seed.as_object() else {
        return Err(fail(&[], "the seed is not a JSON object".into()));
    };
    for key in obj.keys() {
        if !spec.entities.iter().any(|e| &e.get_ref().name == key) {
            return Err(fail(
                &[Seg::Key(key.clone())],
                format!("top-level key {key:?} is not an entity of the spec"),
            ));
        }
    }
    let v = Validator { seed: &seed };
    for e in spec.entities.iter().map(Spanned::get_ref) {
        v.entity(e).map_err(|(at, d)| fail(&at, d))?;
    }
    Ok(seed)
}

/// One step of a path into the seed.
#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

type Bad = (Vec<Seg>, String);

struct Validator<'a> {
    seed: &'a Value,
}

impl Validator<'_> {
    fn entity(&self, e: &Entity) -> Result<(), Bad> {
        let at = vec![Seg::Key(e.name.clone())];
        let Some(v) = self.seed.get(&e.name) else {
            return Err((
                vec![],
                format!("entity {:?} is missing from the seed", e.name),
            ));
        };
        match e.kind {
            EntityKind::Value => {
                let ty = e.value_type.as_deref().unwrap_or("string");
                let f = Field {
                    name: e.name.clone(),
                    ty: ty.into(),
                    label: None,
                    values: vec![],
                    entity: e.entity.clone(),
                    fields: vec![],
                    optional: true,
                    default: None,
                };
                self.value(&f, v, &at, &e.name)
            }
            EntityKind::Record => self.record(&e.fields, v, &at, &e.name),
            EntityKind::List => {
                let items = v.as_array().ok_or((
                    at.clone(),
                    format!("{:?} must be an array of records", e.name),
                ))?;
                let mut ids = BTreeSet::new();
                for (i, r) in items.iter().enumerate() {
                    let mut at = at.clone();
                    at.push(Seg::Index(i));
                    self.record(&e.fields, r, &at, &format!("{}[{i}]", e.name))?;
                    let id = r.get("id").and_then(Value::as_str).unwrap_or_default();
                    if !ids.insert(id) {
                        return Err((at, format!("{}[{i}]: duplicate id {id:?}", e.name)));
                    }
                }
                Ok(())
            }
            EntityKind::Map => self.map(e, v, at),
        }
    }

    /// A `map` entity: an object of records, each keyed by its own `id`.
    fn map(&self, e: &Entity, v: &Value, at: Vec<Seg>) -> Result<(), Bad> {
        let items = v.as_object().ok_or((
            at.clone(),
            format!("{:?} must be an object of records keyed by id", e.name),
        ))?;
        for (key, r) in items {
            let mut at = at.clone();
            at.push(Seg::Key(key.clone()));
            self.record(&e.fields, r, &at, &format!("{}[{key:?}]", e.name))?;
            let id = r.get("id").and_then(Value::as_str).unwrap_or_default();
            if id != key {
                return Err((
                    at,
                    format!("{}[{key:?}]: its id {id:?} is not its key", e.name),
                ));
            }
        }
        Ok(())
    }

    fn record(
        &self,
        fields: &[Spanned<Field>],
        v: &Value,
        at: &[Seg],
        what: &str,
    ) -> Result<(), Bad> {
        let obj = v
            .as_object()
            .ok_or((at.to_vec(), format!("{what} is not an object")))?;
        for k in obj.keys() {
            if !fields.iter().any(|f| &f.get_ref().name == k) {
                let mut at = at.to_vec();
                at.push(Seg::Key(k.clone()));
                return Err((at, format!("{what}: field {k:?} is not declared")));
            }
        }
        for f in fields.iter().map(Spanned::get_ref) {
            let mut at = at.to_vec();
            at.push(Seg::Key(f.name.clone()));
            match obj.get(&f.name) {
                None | Some(Value::Null) if f.optional => {}
                None => {
                    return Err((
                        at[..at.len() - 1].to_vec(),
                        format!("{what}: required field {:?} is missing", f.name),
                    ))
                }
                Some(x) => self.value(f, x, &at, &format!("{what}.{}", f.name))?,
            }
        }
        Ok(())
    }

    fn value(&self, f: &Field, v: &Value, at: &[Seg], what: &str) -> Result<(), Bad> {
        let bad = |want: &str| Err((at.to_vec(), format!("{what} is {v}, not {want}")));
        let ty = FieldType::parse(&f.ty).unwrap_or(FieldType::String);
        if v.is_null() && f.optional {
            return Ok(());
        }
        if let Err(want) = scalar_fit(ty, &f.values, v) {
            return bad(&want);
        }
        match ty {
            FieldType::Ref => self.reference(f, v, at, what)?,
            FieldType::Refs | FieldType::Tags | FieldType::Records => {
                let items = v
                    .as_array()
                    .ok_or((at.to_vec(), format!("{what} is {v}, not a list")))?;
                for (i, x) in items.iter().enumerate() {
                    let mut at = at.to_vec();
                    at.push(Seg::Index(i));
                    let item = format!("{what}[{i}]");
                    match ty {
                        FieldType::Refs => self.reference(f, x, &at, &item)?,
                        FieldType::Tags if !x.is_string() => {
                            return Err((at, format!("{item} is {x}, not a string")))
                        }
                        FieldType::Records => self.record(&f.fields, x, &at, &item)?,
                        _ => {}
                    }
                }
            }
            FieldType::Object => self.record(&f.fields, v, at, what)?,
            _ => {}
        }
        Ok(())
    }

    fn reference(&self, f: &Field, v: &Value, at: &[Seg], what: &str) -> Result<(), Bad> {
        let target = f.entity.as_deref().unwrap_or_default();
        let id = v.as_str().unwrap_or_default();
        let found = match self.seed.get(target) {
            Some(Value::Array(xs)) => xs
                .iter()
                .any(|x| x.get("id").and_then(Value::as_str) == Some(id)),
            Some(Value::Object(map)) => map.contains_key(id),
            _ => false,
        };
        if found {
            Ok(())
        } else {
            Err((
                at.to_vec(),
                format!("{what} is {v}, which is no id of {target:?}"),
            ))
        }
    }
}

/// Whether the scalar `v` fits a field of type `ty` (`values`: an enum's); `Err` says what it
/// must be. List types are checked element-wise by the caller (`Ok` here).
pub fn scalar_fit(ty: FieldType, values: &[String], v: &Value) -> Result<(), String> {
    let ok = match ty {
        FieldType::Id | FieldType::String | FieldType::Text | FieldType::Email => v.is_string(),
        FieldType::Int => v.is_i64() || v.is_u64(),
        FieldType::Number => v.is_number(),
        FieldType::Bool => v.is_boolean(),
        FieldType::Date => v.as_str().is_some_and(is_date),
        FieldType::Datetime => v.as_str().is_some_and(is_datetime),
        FieldType::Enum => v.as_str().is_some_and(|s| values.iter().any(|x| x == s)),
        FieldType::Ref => v.is_string(),
        FieldType::Refs | FieldType::Tags | FieldType::Records => v.is_array(),
        FieldType::Object => v.is_object(),
        FieldType::Json => true,
    };
    if ok {
        return Ok(());
    }
    Err(match ty {
        FieldType::Int => "an integer".into(),
        FieldType::Number => "a number".into(),
        FieldType::Bool => "true or false".into(),
        FieldType::Date => "a date YYYY-MM-DD".into(),
        FieldType::Datetime => "an RFC 3339 date-time".into(),
        FieldType::Enum => format!("one of {values:?}"),
        FieldType::Refs | FieldType::Tags | FieldType::Records => "a list".into(),
        FieldType::Object => "an object".into(),
        _ => "a string".into(),
    })
}

/// Whether `s` is an RFC 3339 date-time.
pub fn is_datetime(s: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(s).is_ok()
}

/// Whether `s` is `YYYY-MM-DD`.
pub fn is_date(s: &str) -> bool {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok()
}

/// The 1-based line where the value at `path` starts in the JSON `text` (1 when not found).
pub fn line_at(text: &str, path: &[Seg]) -> usize {
    let mut stack: Vec<(bool, usize, Option<String>)> = Vec::new(); // (is_array, index, key)
    let (mut line, mut i) = (1, 0);
    let bytes = text.as_bytes();
    let here = |stack: &[(bool, usize, Option<String>)]| -> Vec<Seg> {
        stack
            .iter()
            .map(|(arr, idx, key)| {
                if *arr {
                    Seg::Index(*idx)
                } else {
                    Seg::Key(key.clone().unwrap_or_default())
                }
            })
            .collect()
    };
    let mut expect_value = true;
    if path.is_empty() {
        return 1;
    }
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => line += 1,
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let s = text.get(start..i.min(text.len())).unwrap_or_default();
                if !expect_value {
                    if let Some(top) = stack.last_mut() {
                        top.2 = Some(s.to_string());
                    }
                } else if here(&stack) == path {
                    return line;
                }
            }
            b':' => {
                expect_value = true;
                if here(&stack) == path {
                    return next_line(text, i, line);
                }
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    if top.0 {
                        top.1 += 1;
                        expect_value = true;
                        if here(&stack) == path {
                            return next_line(text, i, line);
                        }
                    } else {
                        expect_value = false;
                    }
                }
            }
            b'{' | b'[' => {
                stack.push((c == b'[', 0, None));
                expect_value = c == b'[';
                if c == b'[' && here(&stack) == path {
                    return next_line(text, i, line);
                }
            }
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    1
}

/// The line of the first non-blank character after byte `at`.
fn next_line(text: &str, at: usize, mut line: usize) -> usize {
    for b in text.as_bytes()[at + 1..].iter() {
        match b {
            b'\n' => line += 1,
            b' ' | b'\t' | b'\r' => {}
            _ => break,
        }
    }
    line
}
