//! The view checks of the spec compiler (split from [`super::parse`]): entities, routes, the
//! fields each view kind needs, and the actions a view may offer.

use super::error::Problem;
use super::parse::{Checker, Res};
use super::spec::{ActionOn, Entity, EntityKind, FieldType, PlanRule, View, ViewKind};
use toml::Spanned;

impl<'a> Checker<'a> {
    pub(super) fn check_view(&self, v: &Spanned<View>) -> Res {
        let (span, view) = (v.span(), v.get_ref());
        let what = format!("view {:?}", view.name);
        if !view.route.starts_with('/') {
            return self.err(
                span,
                Problem::Invalid,
                format!("{what}: route {:?} must start with /", view.route),
            );
        }
        for m in &view.metrics {
            if self.entity(&m.entity).is_none() {
                return self.err(
                    span,
                    Problem::MissingEntity,
                    format!(
                        "{what}: metric {:?} counts entity {:?}, which the spec does not declare",
                        m.label, m.entity
                    ),
                );
            }
        }
        let ent = match (&view.entity, view.kind) {
            (None, ViewKind::Dashboard) => return self.view_actions(span, view, None),
            (None, _) => {
                return self.err(
                    span,
                    Problem::MissingEntity,
                    format!("{what} names no entity"),
                )
            }
            (Some(name), _) => match self.entity(name) {
                Some(e) => e,
                None => {
                    return self.err(
                        span,
                        Problem::MissingEntity,
                        format!("{what} shows entity {name:?}, which the spec does not declare"),
                    )
                }
            },
        };
        let want = if view.kind == ViewKind::Settings {
            EntityKind::Record
        } else {
            EntityKind::List
        };
        let fits = ent.kind == want || (want == EntityKind::List && ent.kind == EntityKind::Map);
        if view.kind != ViewKind::Dashboard && !fits {
            return self.err(
                span,
                Problem::Invalid,
                format!("{what}: a {:?} view needs a {want:?} entity", view.kind),
            );
        }
        self.check_route(span.clone(), view, ent)?;
        for f in &view.fields {
            self.field_of(span.clone(), ent, f, &what)?;
        }
        if let Some(c) = &view.filter {
            self.field_of(span.clone(), ent, &c.field, &format!("{what} filter"))?;
        }
        if let Some(s) = &view.sort {
            self.field_of(
                span.clone(),
                ent,
                s.trim_start_matches('-'),
                &format!("{what} sort"),
            )?;
        }
        self.view_kind_fields(span.clone(), view, ent)?;
        if let Some(open) = &view.open {
            match self.view(open) {
                Some(o) if o.kind.is_record() && o.entity == view.entity => {}
                _ => {
                    return self.err(
                        span,
                        Problem::MissingView,
                        format!(
                            "{what} opens {open:?}, which is not a record view of {:?}",
                            ent.name
                        ),
                    )
                }
            }
        }
        self.view_actions(span, view, Some(ent))
    }

    pub(super) fn check_route(
        &self,
        span: std::ops::Range<usize>,
        view: &View,
        ent: &'a Entity,
    ) -> Res {
        let params: Vec<&str> = view
            .route
            .split('/')
            .filter(|s| s.starts_with('{') && s.ends_with('}'))
            .collect();
        let what = format!("view {:?}", view.name);
        match (view.kind.is_record(), params.as_slice()) {
            (false, []) => Ok(()),
            (true, [p]) => self
                .field_of(span, ent, &p[1..p.len() - 1], &format!("{what} route"))
                .map(|_| ()),
            (true, _) => self.err(
                span,
                Problem::Invalid,
                format!(
                    "{what}: a record view's route needs exactly one {{field}} segment, not {:?}",
                    view.route
                ),
            ),
            (false, _) => self.err(
                span,
                Problem::Invalid,
                format!(
                    "{what}: only record views have {{field}} segments ({:?})",
                    view.route
                ),
            ),
        }
    }

    pub(super) fn view_kind_fields(
        &self,
        span: std::ops::Range<usize>,
        view: &View,
        ent: &'a Entity,
    ) -> Res {
        use FieldType as T;
        let what = |k: &str| format!("view {:?} {k}", view.name);
        match view.kind {
            ViewKind::Board => self.typed_field(
                span,
                ent,
                view.group_by.as_deref(),
                &[T::Enum],
                &what("group_by"),
            ),
            ViewKind::Calendar => self.typed_field(
                span,
                ent,
                view.date_field.as_deref(),
                &[T::Date, T::Datetime],
                &what("date_field"),
            ),
            ViewKind::Inbox => self.typed_field(
                span,
                ent,
                view.unread_field.as_deref(),
                &[T::Bool],
                &what("unread_field"),
            ),
            ViewKind::Thread => self.typed_field(
                span,
                ent,
                view.thread_field.as_deref(),
                &[T::Records],
                &what("thread_field"),
            ),
            ViewKind::Document => self.typed_field(
                span,
                ent,
                view.body_field.as_deref(),
                &[T::Text, T::String],
                &what("body_field"),
            ),
            _ => Ok(()),
        }
    }

    pub(super) fn view_actions(
        &self,
        span: std::ops::Range<usize>,
        view: &View,
        ent: Option<&Entity>,
    ) -> Res {
        for name in &view.actions {
            let Some(a) = self
                .spec
                .actions
                .iter()
                .map(Spanned::get_ref)
                .find(|a| &a.name == name)
            else {
                return self.err(
                    span,
                    Problem::MissingAction,
                    format!(
                        "view {:?} offers action {name:?}, which the spec does not declare",
                        view.name
                    ),
                );
            };
            let fits = match a.on {
                ActionOn::Record => {
                    view.kind.is_record()
                        || (a.inputs.is_empty()
                            && matches!(
                                view.kind,
                                ViewKind::Table
                                    | ViewKind::List
                                    | ViewKind::Board
                                    | ViewKind::Inbox
                            ))
                }
                ActionOn::Collection => true,
                ActionOn::Singleton => view.kind == ViewKind::Settings,
            };
            let same = a.on == ActionOn::Collection || ent.is_some_and(|e| e.name == a.entity);
            if !fits || !same {
                return self.err(
                    span,
                    Problem::MissingAction,
                    format!(
                        "view {:?} ({:?} of {:?}) cannot offer action {name:?} (on {:?} of {:?})",
                        view.name,
                        view.kind,
                        view.entity.as_deref().unwrap_or("-"),
                        a.on,
                        a.entity
                    ),
                );
            }
        }
        Ok(())
    }

    /// A `[[plans]]` rule names a record action offered on a record view, and only inputs that
    /// action has.
    pub(super) fn check_plan(&self, p: &Spanned<PlanRule>) -> Res {
        let (span, rule) = (p.span(), p.get_ref());
        let what = format!("plan of template {:?}", rule.template);
        let act = self
            .spec
            .actions
            .iter()
            .map(Spanned::get_ref)
            .find(|a| a.name == rule.action && a.on == ActionOn::Record);
        let Some(act) = act else {
            return self.err(
                span,
                Problem::MissingAction,
                format!(
                    "{what} names action {:?}, which is no record action of the spec",
                    rule.action
                ),
            );
        };
        let offered = self
            .spec
            .views
            .iter()
            .map(Spanned::get_ref)
            .any(|v| v.kind.is_record() && v.actions.contains(&act.name));
        if !offered {
            return self.err(
                span,
                Problem::MissingAction,
                format!("{what}: action {:?} is offered on no record view", act.name),
            );
        }
        for input in rule.inputs.keys() {
            if !act.inputs.iter().any(|i| i.key() == input) {
                return self.err(
                    span,
                    Problem::MissingField,
                    format!("{what}: action {:?} has no input {input:?}", act.name),
                );
            }
        }
        Ok(())
    }
}
