//! Parsing a spec and refusing a bad one: every name a spec uses must resolve, every field type
//! must exist, every action's declared `changes` must equal what its `effects` write. Errors
//! carry the file and the line of the construct at fault ([`SpecError`]).

use std::collections::BTreeSet;
use std::path::Path;

use toml::Spanned;

use super::error::{line_of, Problem, SpecError};
use super::spec::{Action, ActionOn, Effect, Entity, EntityKind, Field, FieldType, Op, Spec, View};

/// Parses and checks the spec `text` read from `path` (named in errors).
pub fn parse(path: &Path, text: &str) -> Result<Spec, SpecError> {
    let spec: Spec = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
        SpecError::at(path, line, Problem::Syntax, e.message().to_string())
    })?;
    Checker {
        path,
        text,
        spec: &spec,
    }
    .check()?;
    Ok(spec)
}

/// Reads and checks the spec file at `path`.
pub fn load(path: &Path) -> Result<Spec, SpecError> {
    let text = std::fs::read_to_string(path).map_err(|e| SpecError::io(path, e))?;
    parse(path, &text)
}

pub(super) struct Checker<'a> {
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
    pub(super) spec: &'a Spec,
}

pub(super) type Res = Result<(), SpecError>;

impl<'a> Checker<'a> {
    pub(super) fn err<T>(
        &self,
        span: std::ops::Range<usize>,
        p: Problem,
        detail: String,
    ) -> Result<T, SpecError> {
        Err(SpecError::at(
            self.path,
            line_of(self.text, span.start),
            p,
            detail,
        ))
    }

    fn check(&self) -> Res {
        self.check_app()?;
        self.unique(
            self.spec
                .entities
                .iter()
                .map(|e| (e.span(), e.get_ref().name.as_str())),
            "entity",
        )?;
        self.unique(
            self.spec
                .views
                .iter()
                .map(|v| (v.span(), v.get_ref().name.as_str())),
            "view",
        )?;
        self.unique(
            self.spec
                .views
                .iter()
                .map(|v| (v.span(), v.get_ref().route.as_str())),
            "route",
        )?;
        self.unique(
            self.spec
                .actions
                .iter()
                .map(|a| (a.span(), a.get_ref().name.as_str())),
            "action",
        )?;
        for e in &self.spec.entities {
            self.check_entity(e)?;
        }
        for v in &self.spec.views {
            self.check_view(v)?;
        }
        for a in &self.spec.actions {
            self.check_action(a)?;
        }
        for p in &self.spec.plans {
            self.check_plan(p)?;
        }
        Ok(())
    }

    fn check_app(&self) -> Res {
        let app = &self.spec.app;
        let ok = !app.name.is_empty()
            && app
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !ok {
            return self.err(
                0..0,
                Problem::Invalid,
                format!(
                    "[app] name {:?} must be lowercase letters, digits and dashes",
                    app.name
                ),
            );
        }
        if app.category.trim().is_empty() {
            return self.err(0..0, Problem::Invalid, "[app] category is empty".into());
        }
        if let Some(user) = &app.user {
            match self.entity(user) {
                Some(e) if e.kind == EntityKind::Value => {}
                _ => {
                    return self.err(
                        0..0,
                        Problem::MissingEntity,
                        format!("[app] user names {user:?}, which is not a `value` entity"),
                    )
                }
            }
        }
        Ok(())
    }

    pub(super) fn unique<'s>(
        &self,
        items: impl Iterator<Item = (std::ops::Range<usize>, &'s str)>,
        what: &str,
    ) -> Res {
        let mut seen = BTreeSet::new();
        for (span, name) in items {
            if !seen.insert(name) {
                return self.err(
                    span,
                    Problem::Duplicate,
                    format!("two of the {what}s are {name:?}"),
                );
            }
        }
        Ok(())
    }

    pub(super) fn entity(&self, name: &str) -> Option<&'a Entity> {
        self.spec
            .entities
            .iter()
            .map(Spanned::get_ref)
            .find(|e| e.name == name)
    }

    pub(super) fn view(&self, name: &str) -> Option<&'a View> {
        self.spec
            .views
            .iter()
            .map(Spanned::get_ref)
            .find(|v| v.name == name)
    }

    fn check_entity(&self, e: &Spanned<Entity>) -> Res {
        let (span, ent) = (e.span(), e.get_ref());
        match ent.kind {
            EntityKind::Value => {
                let ty = ent.value_type.as_deref().unwrap_or("");
                let Some(t) = FieldType::parse(ty) else {
                    return self.err(
                        span,
                        Problem::UnknownFieldType,
                        format!(
                            "entity {:?}: unknown type {ty:?} (the language has {})",
                            ent.name,
                            FieldType::NAMES.join(", ")
                        ),
                    );
                };
                if t == FieldType::Ref {
                    self.ref_target(span, &ent.name, ent.entity.as_deref())?;
                }
            }
            EntityKind::List | EntityKind::Map | EntityKind::Record => {
                self.check_fields(&ent.name, &ent.fields)?;
                if ent.kind.is_collection()
                    && !ent
                        .fields
                        .iter()
                        .any(|f| f.get_ref().name == "id" && f.get_ref().ty == "id")
                {
                    return self.err(
                        span,
                        Problem::Invalid,
                        format!(
                            "entity {:?} is a list but has no field `id` of type id",
                            ent.name
                        ),
                    );
                }
                for f in [&ent.key, &ent.title].into_iter().flatten() {
                    self.field_of(span.clone(), ent, f, &format!("entity {:?}", ent.name))?;
                }
            }
        }
        Ok(())
    }

    fn check_fields(&self, owner: &str, fields: &[Spanned<Field>]) -> Res {
        self.unique(
            fields.iter().map(|f| (f.span(), f.get_ref().name.as_str())),
            &format!("fields of {owner:?}"),
        )?;
        for f in fields {
            let (span, field) = (f.span(), f.get_ref());
            let Some(ty) = FieldType::parse(&field.ty) else {
                return self.err(
                    span,
                    Problem::UnknownFieldType,
                    format!(
                        "{owner}.{}: unknown field type {:?} (the language has {})",
                        field.name,
                        field.ty,
                        FieldType::NAMES.join(", ")
                    ),
                );
            };
            match ty {
                FieldType::Enum if field.values.is_empty() => {
                    return self.err(
                        span,
                        Problem::Invalid,
                        format!("{owner}.{}: an enum needs `values`", field.name),
                    )
                }
                FieldType::Ref | FieldType::Refs => self.ref_target(
                    span,
                    &format!("{owner}.{}", field.name),
                    field.entity.as_deref(),
                )?,
                FieldType::Records | FieldType::Object => {
                    self.check_fields(&format!("{owner}.{}", field.name), &field.fields)?
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn ref_target(&self, span: std::ops::Range<usize>, what: &str, target: Option<&str>) -> Res {
        let target = target.unwrap_or("");
        match self.entity(target) {
            Some(e) if e.kind.is_collection() => Ok(()),
            _ => self.err(
                span,
                Problem::MissingEntity,
                format!(
                    "{what} refers to entity {target:?}, which the spec does not declare as a list"
                ),
            ),
        }
    }

    pub(super) fn field_of(
        &self,
        span: std::ops::Range<usize>,
        ent: &'a Entity,
        name: &str,
        what: &str,
    ) -> Result<&'a Field, SpecError> {
        match ent
            .fields
            .iter()
            .map(Spanned::get_ref)
            .find(|f| f.name == name)
        {
            Some(f) => Ok(f),
            None => self.err(
                span,
                Problem::MissingField,
                format!(
                    "{what} names field {name:?}, which entity {:?} does not have",
                    ent.name
                ),
            ),
        }
    }

    pub(super) fn typed_field(
        &self,
        span: std::ops::Range<usize>,
        ent: &'a Entity,
        name: Option<&str>,
        want: &[FieldType],
        what: &str,
    ) -> Res {
        let Some(name) = name else {
            return self.err(
                span,
                Problem::Invalid,
                format!("{what} is required for this view kind"),
            );
        };
        let f = self.field_of(span.clone(), ent, name, what)?;
        if want.iter().any(|t| FieldType::parse(&f.ty) == Some(*t)) {
            Ok(())
        } else {
            self.err(
                span,
                Problem::Invalid,
                format!(
                    "{what} {name:?} is a {} field; it must be one of {want:?}",
                    f.ty
                ),
            )
        }
    }

    fn check_action(&self, a: &Spanned<Action>) -> Res {
        let (span, act) = (a.span(), a.get_ref());
        let what = format!("action {:?}", act.name);
        let Some(ent) = self.entity(&act.entity) else {
            return self.err(
                span,
                Problem::MissingEntity,
                format!(
                    "{what} changes entity {:?}, which the spec does not declare",
                    act.entity
                ),
            );
        };
        let want = if act.on == ActionOn::Singleton {
            EntityKind::Record
        } else {
            EntityKind::List
        };
        if ent.kind != want && !(want == EntityKind::List && ent.kind == EntityKind::Map) {
            return self.err(
                span,
                Problem::Invalid,
                format!("{what}: an action on {:?} needs a {want:?} entity", act.on),
            );
        }
        for input in &act.inputs {
            match (&input.field, &input.ty) {
                (Some(f), _) => {
                    let field = self.field_of(span.clone(), ent, f, &format!("{what} input"))?;
                    if field.ty == "json" {
                        return self.err(
                            span,
                            Problem::Invalid,
                            format!("{what}: input {f:?} is a json field, which has no widget"),
                        );
                    }
                }
                (None, Some(t)) if FieldType::parse(t).is_some() && !input.key().is_empty() => {}
                (None, Some(t)) if FieldType::parse(t).is_none() => {
                    return self.err(
                        span,
                        Problem::UnknownFieldType,
                        format!("{what}: input {:?} has unknown type {t:?}", input.key()),
                    )
                }
                _ => {
                    return self.err(
                        span,
                        Problem::Invalid,
                        format!("{what}: an input needs `field`, or `name` and `type`"),
                    )
                }
            }
        }
        if let Some(go) = &act.go {
            if self.view(go).is_none() {
                return self.err(
                    span,
                    Problem::MissingView,
                    format!("{what} goes to view {go:?}, which the spec does not declare"),
                );
            }
        }
        let mut written = BTreeSet::new();
        for e in &act.effects {
            written.insert(self.check_effect(span.clone(), act, ent, e)?);
        }
        let declared: BTreeSet<String> = act.changes.iter().cloned().collect();
        if declared != written {
            let fmt = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
            return self.err(
                span,
                Problem::EffectMismatch,
                format!(
                    "{what} declares changes [{}] but its effects write [{}]",
                    fmt(&declared),
                    fmt(&written)
                ),
            );
        }
        Ok(())
    }

    /// Checks one effect; returns the change it makes (`entity.field`, `entity+`, `entity-`).
    fn check_effect(
        &self,
        span: std::ops::Range<usize>,
        act: &Action,
        ent: &'a Entity,
        e: &Effect,
    ) -> Result<String, SpecError> {
        let what = format!("action {:?} effect {:?}", act.name, e.op);
        let inputs: BTreeSet<&str> = act.inputs.iter().map(|i| i.key()).collect();
        for v in e
            .value
            .iter()
            .chain(e.record.iter().flat_map(|r| r.values()))
        {
            self.check_value(span.clone(), &what, v, &inputs)?;
        }
        match e.op {
            Op::Create if act.on == ActionOn::Collection => return Ok(format!("{}+", ent.name)),
            Op::Remove if act.on == ActionOn::Record => return Ok(format!("{}-", ent.name)),
            Op::Create | Op::Remove => {
                return self.err(
                    span,
                    Problem::EffectMismatch,
                    format!("{what} does not fit an action on {:?}", act.on),
                )
            }
            _ => {}
        }
        let Some(name) = e.field.as_deref() else {
            return self.err(
                span,
                Problem::EffectMismatch,
                format!("{what} names no field"),
            );
        };
        let field = self.field_of(span.clone(), ent, name, &what)?;
        let ty = FieldType::parse(&field.ty).unwrap_or(FieldType::String);
        let fits = match e.op {
            Op::Set => ty != FieldType::Id && e.value.is_some(),
            Op::Toggle => ty == FieldType::Bool,
            Op::Increment => matches!(ty, FieldType::Int | FieldType::Number),
            Op::Append => {
                (ty.is_list() && ty != FieldType::Records && e.value.is_some())
                    || (ty == FieldType::Records && e.record.is_some())
            }
            Op::RemoveItem => matches!(ty, FieldType::Tags | FieldType::Refs) && e.value.is_some(),
            Op::Create | Op::Remove => false,
        };
        if !fits {
            return self.err(
                span,
                Problem::EffectMismatch,
                format!(
                    "{what} cannot apply to field {name:?} of type {} (or lacks its value)",
                    field.ty
                ),
            );
        }
        if let Some(r) = &e.record {
            for k in r.keys() {
                if !field.fields.iter().any(|f| &f.get_ref().name == k) {
                    return self.err(
                        span,
                        Problem::MissingField,
                        format!("{what}: nested record field {k:?} is not a field of {name:?}"),
                    );
                }
            }
        }
        Ok(format!("{}.{name}", ent.name))
    }

    fn check_value(
        &self,
        span: std::ops::Range<usize>,
        what: &str,
        v: &toml::Value,
        inputs: &BTreeSet<&str>,
    ) -> Res {
        let Some(s) = v.as_str() else { return Ok(()) };
        if let Some(input) = s.strip_prefix('@').filter(|i| !i.starts_with('@')) {
            if !inputs.contains(input) {
                return self.err(
                    span,
                    Problem::EffectMismatch,
                    format!("{what} reads input {input:?}, which the action's form does not have"),
                );
            }
        }
        if let Some(b) = s.strip_prefix('$').filter(|i| !i.starts_with('$')) {
            if !["now", "today", "user"].contains(&b) {
                return self.err(span, Problem::Invalid, format!("{what}: unknown built-in value ${b} (the language has $now, $today, $user)"));
            }
            if b == "user" && self.spec.app.user.is_none() {
                return self.err(
                    span,
                    Problem::Invalid,
                    format!("{what} uses $user but [app] names no `user`"),
                );
            }
        }
        Ok(())
    }
}
