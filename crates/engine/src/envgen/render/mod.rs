//! The generic server-rendered renderer: one [`SpecUi`] serves any spec as an [`AppUi`], so a
//! spec app gets the agent-facing UI origin, the screen, the state API and sessions exactly as
//! the hand-written apps do (server-authoritative: every form names an action whose declared
//! effects the server applies to the session's state).

mod collection;
mod css;
pub mod form;
mod record;
mod shell;

use maud::Markup;
use serde_json::Value;

use super::effects;
use super::model::Model;
use super::shape;
use super::spec::ViewKind;
use crate::ui::{AppUi, Ctx, Done, FormData, OpError};

pub use collection::records as view_records;

/// The UI of one spec app. Leaked once per app (`&'static`), as the UI registry wants.
pub struct SpecUi {
    model: Model,
    name: &'static str,
    css: &'static str,
    ops: &'static [(&'static str, &'static [&'static str])],
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

impl SpecUi {
    /// The UI of `model`, leaked for the process' lifetime (call once per app).
    pub fn leak(model: Model) -> &'static SpecUi {
        let name = leak(model.name().to_string());
        let css = leak(css::stylesheet(&model.spec.theme));
        let ops: Vec<(&'static str, &'static [&'static str])> = model
            .actions()
            .map(|a| {
                let paths: Vec<&'static str> = a.changes.iter().map(|c| leak(c.clone())).collect();
                (leak(a.name.clone()), &*Box::leak(paths.into_boxed_slice()))
            })
            .collect();
        Box::leak(Box::new(SpecUi {
            model,
            name,
            css,
            ops: Box::leak(ops.into_boxed_slice()),
        }))
    }

    /// The app's model.
    pub fn model(&self) -> &Model {
        &self.model
    }
}

impl AppUi for SpecUi {
    fn app(&self) -> &'static str {
        self.name
    }

    fn css(&self) -> &'static str {
        self.css
    }

    fn page(&self, path: &str, state: &Value, ctx: &Ctx) -> Option<(String, Markup)> {
        let lists;
        let state = if shape::has_maps(&self.model.spec) {
            lists = shape::as_lists(&self.model.spec, state);
            &lists
        } else {
            state
        };
        let (view, key) = self.model.route(path)?;
        let today = ctx.today.rfc3339();
        let body = if view.kind.is_record() {
            let ent = self.model.entity(view.entity.as_deref()?)?;
            let field = Model::route_field(view)?;
            let rec = Model::find(state, &ent.name, field, key.as_deref()?)?;
            let title = format!("{} — {}", view.title, Model::title_of(ent, rec));
            let content = record::body(&self.model, state, view, path, rec);
            return Some((
                title.clone(),
                shell::frame(&self.model, &view.name, &title, content),
            ));
        } else if view.kind == ViewKind::Settings {
            record::settings(&self.model, state, view, path)
        } else {
            collection::body(&self.model, state, view, path, &today)
        };
        Some((
            view.title.clone(),
            shell::frame(&self.model, &view.name, &view.title, body),
        ))
    }

    fn apply(
        &self,
        op: &str,
        form: &FormData,
        ctx: &Ctx,
        state: &mut Value,
    ) -> Result<Done, OpError> {
        let act = self
            .model
            .action(op)
            .ok_or_else(|| OpError(format!("no action {op:?}")))?;
        if !shape::has_maps(&self.model.spec) {
            return effects::apply(&self.model, act, form, ctx, state);
        }
        let mut lists = shape::as_lists(&self.model.spec, state);
        let done = effects::apply(&self.model, act, form, ctx, &mut lists)?;
        *state = shape::as_maps(&self.model.spec, lists);
        Ok(done)
    }

    fn ops(&self) -> &'static [(&'static str, &'static [&'static str])] {
        self.ops
    }
}
