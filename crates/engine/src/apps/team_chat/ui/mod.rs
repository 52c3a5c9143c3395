//! The team-chat UI: a team messenger — channel sidebar, message list and composer, threads,
//! reactions, channel details (rename, topic and purpose, privacy, members, archive), a new-channel
//! form and the signed-in user's profile.
//!
//! Pages: `/` (the first channel), `/c/<id>` (a channel or DM), `/c/<id>/thread/<message>`,
//! `/c/<id>/details`, `/new-channel`, `/profile`. Operations: [`ops::OPS`].

pub mod model;
pub mod ops;
pub mod planner;
mod settings;
mod view;

#[cfg(test)]
mod tests;

use maud::Markup;
use serde_json::Value;

use crate::ui::{AppUi, Ctx, Done, FormData, OpError};

/// The team-chat UI.
pub struct TeamChat;

impl AppUi for TeamChat {
    fn app(&self) -> &'static str {
        "team-chat"
    }

    fn css(&self) -> &'static str {
        include_str!("../ui.css")
    }

    fn page(&self, path: &str, state: &Value, ctx: &Ctx) -> Option<(String, Markup)> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match parts.as_slice() {
            [""] => {
                let first = model::arr(state, "channels")
                    .iter()
                    .find(|c| !model::b(c, "isArchived"))
                    .map(|c| model::s(c, "id"))?;
                view::page(state, ctx, first, None)
            }
            ["c", id] => view::page(state, ctx, id, None),
            ["c", id, "thread", mid] => view::page(state, ctx, id, Some(mid)),
            ["c", id, "details"] => settings::details(state, id),
            ["new-channel"] => Some(settings::new_channel(state)),
            ["profile"] => Some(settings::profile(state)),
            _ => None,
        }
    }

    fn apply(
        &self,
        op: &str,
        form: &FormData,
        ctx: &Ctx,
        state: &mut Value,
    ) -> Result<Done, OpError> {
        ops::apply(op, form, ctx, state)
    }

    fn ops(&self) -> &'static [(&'static str, &'static [&'static str])] {
        ops::OPS
    }
}
