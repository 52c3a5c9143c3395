//! The frame every admin page shares: the shop's navigation sidebar beside the page's main area,
//! and the small widgets several pages use (the tag editor, a text field, a checkbox).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{shop_name, strs};
use crate::ui::page::back;

/// The sections of the admin, as (path, label).
pub const SECTIONS: &[(&str, &str)] = &[
    ("/products", "Products"),
    ("/orders", "Orders"),
    ("/customers", "Customers"),
    ("/collections", "Collections"),
    ("/vendors", "Vendors"),
    ("/discounts", "Discounts"),
    ("/settings", "Settings"),
];

/// The sidebar with `section` (a [`SECTIONS`] path) marked current.
fn sidebar(state: &Value, section: &str) -> Markup {
    html! {
        nav.sidebar aria-label="Admin" {
            div.shop { span.logo aria-hidden="true" { "◆" } " " (shop_name(state)) }
            ul {
                @for (href, label) in SECTIONS {
                    li {
                        a.current[*href == section] href=(href)
                            aria-current=[(*href == section).then_some("page")] { (label) }
                    }
                }
            }
        }
    }
}

/// A page: the sidebar and a main area labelled `label` carrying `data` attributes (what the
/// page shows: `id`, `email`, `number`, `code`, `vendor` or `status`, so a plan can tell it has
/// landed) and holding `content`.
pub fn frame(
    state: &Value,
    section: &str,
    label: &str,
    data: &[(&str, String)],
    content: Markup,
) -> Markup {
    let mark = |k: &str| data.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
    html! {
        div.app {
            (sidebar(state, section))
            main aria-label=(label) data-id=[mark("id")] data-email=[mark("email")]
                data-number=[mark("number")] data-code=[mark("code")] data-vendor=[mark("vendor")]
                data-status=[mark("status")] {
                (content)
            }
        }
    }
}

/// The page head: a breadcrumb link back to `up` (path, label), the title, and actions.
pub fn head(up: Option<(&str, &str)>, title: &str, actions: Markup) -> Markup {
    html! {
        header.head {
            @if let Some((href, label)) = up {
                a.up href=(href) { "‹ " (label) }
            }
            h1 { (title) }
            div.actions { (actions) }
        }
    }
}

/// A labelled one-line text field `name` (id `f-<name>`).
pub fn text_field(label: &str, name: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for={ "f-" (name) } { (label) }
            input id={ "f-" (name) } type="text" name=(name) value=(value);
        }
    }
}

/// A checkbox `name` (value `true`) with its label.
pub fn checkbox(label: &str, name: &str, on: bool) -> Markup {
    html! {
        label.choice.check {
            input type="checkbox" name=(name) value="true" checked[on];
            (label)
        }
    }
}

/// The tags of record `id` in `collection` with a remove button each and an add-tag form.
pub fn tags(collection: &str, id: &str, rec: &Value, here: &str) -> Markup {
    let mine = strs(rec, "tags");
    html! {
        section.card.tags aria-labelledby="h-tags" {
            h2 #h-tags { "Tags" }
            ul.tag-list {
                @for t in &mine {
                    li.tag data-tag=(t) {
                        (t)
                        form.inline method="post" action="/op/remove_tag" {
                            (back(here))
                            input type="hidden" name="collection" value=(collection);
                            input type="hidden" name="record" value=(id);
                            input type="hidden" name="tag" value=(t);
                            button.quiet type="submit" aria-label={ "Remove tag " (t) } { "×" }
                        }
                    }
                }
                @if mine.is_empty() { li.empty { "No tags" } }
            }
            form.add-tag method="post" autocomplete="off" action="/op/add_tag" {
                (back(here))
                input type="hidden" name="collection" value=(collection);
                input type="hidden" name="record" value=(id);
                label for="f-tag" { "Add tag" }
                input #f-tag type="text" name="tag";
                button type="submit" { "Add tag" }
            }
        }
    }
}
