//! Contacts: the list (star, name, email, company, phone), a contact's edit page (with delete)
//! and the new-contact form.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, b, by_id, s};
use super::sidebar::sidebar;
use crate::ui::page::back;

fn star(c: &Value, here: &str) -> Markup {
    let on = b(c, "starred");
    html! {
        form.inline.star method="post" action="/op/star_contact" {
            (back(here))
            input type="hidden" name="contact" value=(s(c, "id"));
            input type="hidden" name="starred" value=(!on);
            button.star.on[on] type="submit" aria-pressed=(on)
                aria-label={ @if on { "Unstar " } @else { "Star " } (s(c, "name")) } {
                @if on { "★" } @else { "☆" }
            }
        }
    }
}

/// `/contacts`.
pub fn list(state: &Value) -> (String, Markup) {
    let mut contacts: Vec<&Value> = arr(state, "contacts").iter().collect();
    contacts.sort_by_key(|c| (s(c, "name").to_lowercase(), s(c, "id").to_string()));
    let body = html! {
        div.app {
            (sidebar(state, "/contacts"))
            main.settings aria-label="Contacts" {
                header.head { h1 { "Contacts" } a.button href="/contacts/new" { "New contact" } }
                div.scroll {
                    table.contacts {
                        thead { tr { th { "" } th { "Name" } th { "Email" } th { "Company" } th { "Phone" } } }
                        tbody {
                            @for c in &contacts {
                                tr.starred[b(c, "starred")] data-contact=(s(c, "id")) {
                                    td { (star(c, "/contacts")) }
                                    td { a href={ "/contacts/" (s(c, "id")) } { (s(c, "name")) } }
                                    td { (s(c, "email")) }
                                    td { (s(c, "company")) }
                                    td { (s(c, "phone")) }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    ("Contacts · Mail".into(), body)
}

fn fields(c: &Value) -> Markup {
    html! {
        label for="k-name" { "Name" }
        input #k-name type="text" name="name" value=(s(c, "name")) required;
        label for="k-email" { "Email" }
        input #k-email type="text" name="email" value=(s(c, "email")) required;
        label for="k-company" { "Company" }
        input #k-company type="text" name="company" value=(s(c, "company"));
        label for="k-phone" { "Phone" }
        input #k-phone type="text" name="phone" value=(s(c, "phone"));
        label.check { input type="checkbox" name="starred" value="true" checked[b(c, "starred")]; "Starred" }
    }
}

/// `/contacts/new`.
pub fn new(state: &Value) -> (String, Markup) {
    let body = html! {
        div.app {
            (sidebar(state, "/contacts"))
            main.settings aria-label="New contact" {
                header.head { h1 { "New contact" } a.back href="/contacts" { "Back to contacts" } }
                form method="post" action="/op/create_contact" autocomplete="off" {
                    (back("/contacts/new"))
                    (fields(&Value::Null))
                    div.actions { button type="submit" { "Create contact" } }
                }
            }
        }
    };
    ("New contact · Mail".into(), body)
}

/// `/contacts/<id>`.
pub fn edit(state: &Value, id: &str) -> Option<(String, Markup)> {
    let c = by_id(arr(state, "contacts"), id)?;
    let here = format!("/contacts/{id}");
    let body = html! {
        div.app {
            (sidebar(state, "/contacts"))
            main.settings aria-label="Contact" {
                header.head { h1 { (s(c, "name")) } a.back href="/contacts" { "Back to contacts" } }
                form method="post" action="/op/update_contact" autocomplete="off" {
                    (back(&here))
                    input type="hidden" name="contact" value=(id);
                    (fields(c))
                    div.actions { button type="submit" { "Save contact" } }
                }
                details.confirm {
                    summary { "Delete contact" }
                    form method="post" action="/op/delete_contact" {
                        (back(&here))
                        input type="hidden" name="contact" value=(id);
                        button.danger type="submit" { "Yes, delete " (s(c, "name")) }
                    }
                }
            }
        }
    };
    Some((format!("{} · Mail", s(c, "name")), body))
}
