//! The issue-tracker UI: a project tracker like Linear or Jira — a project sidebar, the board
//! (columns by status over the active sprint), the list (filterable by status or to the
//! signed-in user's issues), the backlog (sprints and the unplanned issues), the issue page
//! (summary, description, status, priority, type, assignee, sprint, story points, labels,
//! comments), create-issue and create-sprint forms, the sprint page and project settings.
//!
//! Pages: `/` (the first project's board), `/p/<id>/{board,backlog,list,list/<filter>,settings,
//! new-issue,new-sprint}`, `/issue/<key>`, `/sprint/<id>`, `/sprints`. Operations: [`ops::OPS`].

mod board;
mod create;
mod issue;
mod lists;
pub mod model;
pub mod ops;
pub mod planner;
mod planning;
mod project;
mod shell;
mod sprint;
pub(crate) mod widgets;

#[cfg(test)]
mod tests;

use maud::Markup;
use serde_json::Value;

use crate::ui::{AppUi, Ctx, Done, FormData, OpError};

/// The issue-tracker UI.
pub struct IssueTracker;

impl AppUi for IssueTracker {
    fn app(&self) -> &'static str {
        "issue-tracker"
    }

    fn css(&self) -> &'static str {
        include_str!("../ui.css")
    }

    fn page(&self, path: &str, state: &Value, ctx: &Ctx) -> Option<(String, Markup)> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match parts.as_slice() {
            [""] => board::board(state, model::first_project(state)?),
            ["p", id] | ["p", id, "board"] => board::board(state, id),
            ["p", id, "backlog"] => lists::backlog(state, id),
            ["p", id, "list"] => lists::list(state, id, ""),
            ["p", id, "list", filter] if !filter.is_empty() => lists::list(state, id, filter),
            ["p", id, "settings"] => project::settings(state, id),
            ["p", id, "new-issue"] => create::new_issue(state, id),
            ["p", id, "new-sprint"] => sprint::new_sprint(state, id),
            ["issue", key] => issue::page(state, ctx, key),
            ["sprint", id] => sprint::page(state, id),
            ["sprints"] => Some(sprint::index(state)),
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
