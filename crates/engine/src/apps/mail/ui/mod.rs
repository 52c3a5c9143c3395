//! The mail UI: a webmail client — folders and labels sidebar, message lists with bulk actions
//! (archive, delete, spam, read, star, move to, label), the reading page, compose / reply /
//! reply all / forward and drafts, contacts, and the label, folder and filter settings.
//!
//! Pages: `/` (the inbox), `/f/<folder>`, `/l/<label>`, `/all`, `/m/<id>`, `/compose`,
//! `/compose/{reply,reply-all,forward}/<id>`, `/drafts/<id>`, `/contacts`, `/contacts/new`,
//! `/contacts/<id>`, `/labels`, `/folders`, `/filters`. Operations: [`OPS`]. Opening a page
//! never writes: a message is marked read only by "Mark read".

mod compose;
mod contacts;
mod list;
mod manage_ops;
mod message;
pub mod model;
mod ops;
pub mod planner;
pub(crate) mod records;
mod settings;
mod sidebar;

#[cfg(test)]
mod coverage_tests;
#[cfg(test)]
mod tests;

use maud::Markup;
use serde_json::Value;

use crate::ui::{AppUi, Ctx, Done, FormData, OpError};
use compose::Start;
use model::View;

/// The mail UI.
pub struct Mail;

/// Every operation, with the state paths it can write (checked against the shipped tasks).
pub const OPS: &[(&str, &[&str])] = &[
    (
        "bulk",
        &[
            "messages",
            "messages.folder",
            "messages.isRead",
            "messages.isStarred",
            "messages.labels",
        ],
    ),
    ("star", &["messages.isStarred"]),
    (
        "compose",
        &[
            "messages",
            "drafts",
            "drafts.to",
            "drafts.cc",
            "drafts.subject",
            "drafts.body",
            "drafts.updatedAt",
        ],
    ),
    ("create_contact", &["contacts"]),
    (
        "update_contact",
        &[
            "contacts.name",
            "contacts.email",
            "contacts.company",
            "contacts.phone",
            "contacts.starred",
        ],
    ),
    ("star_contact", &["contacts.starred"]),
    ("delete_contact", &["contacts"]),
    ("create_label", &["labels"]),
    ("update_label", &["labels.name", "labels.color"]),
    (
        "delete_label",
        &["labels", "messages.labels", "filters.action"],
    ),
    ("create_folder", &["folders"]),
    ("rename_folder", &["folders.name"]),
    ("delete_folder", &["folders"]),
    ("create_filter", &["filters"]),
    ("delete_filter", &["filters"]),
];

impl AppUi for Mail {
    fn app(&self) -> &'static str {
        "mail"
    }

    fn css(&self) -> &'static str {
        include_str!("../ui.css")
    }

    fn page(&self, path: &str, state: &Value, ctx: &Ctx) -> Option<(String, Markup)> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match parts.as_slice() {
            [""] => list::page(state, ctx, View::Folder("inbox")),
            ["f", f] => list::page(state, ctx, View::Folder(f)),
            ["l", l] => list::page(state, ctx, View::Label(l)),
            ["all"] => list::page(state, ctx, View::All),
            ["m", id] => message::page(state, ctx, id),
            ["compose"] => compose::page(state, ctx, path, Start::New),
            ["compose", "reply", id] => compose::page(state, ctx, path, Start::Reply(id, false)),
            ["compose", "reply-all", id] => compose::page(state, ctx, path, Start::Reply(id, true)),
            ["compose", "forward", id] => compose::page(state, ctx, path, Start::Forward(id)),
            ["drafts", id] => compose::page(state, ctx, path, Start::Draft(id)),
            ["contacts"] => Some(contacts::list(state)),
            ["contacts", "new"] => Some(contacts::new(state)),
            ["contacts", id] => contacts::edit(state, id),
            ["labels"] => Some(settings::labels(state)),
            ["folders"] => Some(settings::folders(state)),
            ["filters"] => Some(settings::filters(state)),
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
        match op {
            "bulk" => ops::bulk(form, state),
            "star" => ops::star(form, state),
            "compose" => ops::compose(form, ctx, state),
            _ => manage_ops::apply(op, form, state),
        }
    }

    fn ops(&self) -> &'static [(&'static str, &'static [&'static str])] {
        OPS
    }
}
