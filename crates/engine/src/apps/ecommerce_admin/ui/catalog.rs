//! Collections and vendors: their lists, create forms and edit pages.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, products_of, s, shop_name, strs};
use super::shell::{frame, head, text_field};
use crate::ui::page::back;

fn collection_fields(c: &Value) -> Markup {
    html! {
        (text_field("Title", "title", s(c, "title")))
        (text_field("Handle", "handle", s(c, "handle")))
        p.hint { "Blank handle: made from the title." }
        div.field {
            label for="f-description" { "Description" }
            textarea #f-description name="description" rows="3" { (s(c, "description")) }
        }
    }
}

/// `/collections`.
pub fn collections(state: &Value) -> (String, Markup) {
    let actions = html! { a.button.primary href="/collections/new" { "Create collection" } };
    let content = html! {
        (head(None, "Collections", actions))
        div.scroll {
            table.list.collections aria-label="Collections" {
                thead { tr { th { "Title" } th { "Handle" } th { "Products" } th { "Description" } } }
                tbody {
                    @for c in arr(state, "collections") {
                        @let id = s(c, "id");
                        tr data-id=(id) data-title=(s(c, "title")) {
                            td { a.open href={ "/collections/" (id) } { (s(c, "title")) } }
                            td { (s(c, "handle")) }
                            td.num { (arr(state, "products").iter().filter(|p| strs(p, "collections").contains(&id)).count()) }
                            td { (s(c, "description")) }
                        }
                    }
                }
            }
        }
    };
    (
        format!("Collections · {}", shop_name(state)),
        frame(state, "/collections", "Collections", &[], content),
    )
}

/// `/collections/new`.
pub fn new_collection(state: &Value) -> (String, Markup) {
    let content = html! {
        (head(Some(("/collections", "Collections")), "Create collection", html! {}))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/create_collection" {
                (back("/collections/new"))
                (collection_fields(&Value::Null))
                button type="submit" { "Create collection" }
            }
        }
    };
    (
        format!("Create collection · {}", shop_name(state)),
        frame(state, "/collections", "Create collection", &[], content),
    )
}

/// `/collections/<id>`: its fields and the products in it.
pub fn collection(state: &Value, id: &str) -> Option<(String, Markup)> {
    let c = by_id(arr(state, "collections"), id)?;
    let title = s(c, "title");
    let here = format!("/collections/{id}");
    let content = html! {
        (head(Some(("/collections", "Collections")), title, html! {}))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/update_collection" {
                (back(&here))
                input type="hidden" name="id" value=(id);
                (collection_fields(c))
                button type="submit" { "Save collection" }
            }
            section.card aria-labelledby="h-in" {
                h2 #h-in { "Products in this collection" }
                ul.plain {
                    @for p in arr(state, "products").iter().filter(|p| strs(p, "collections").contains(&id)) {
                        li { a href={ "/products/" (s(p, "id")) } { (s(p, "title")) } }
                    }
                }
                p.hint { "Add or remove a product from its product page." }
            }
        }
    };
    Some((
        format!("{title} · {}", shop_name(state)),
        frame(
            state,
            "/collections",
            title,
            &[("id", id.to_string())],
            content,
        ),
    ))
}

fn vendor_fields(v: &Value) -> Markup {
    html! {
        (text_field("Vendor name", "name", s(v, "name")))
        (text_field("Contact email", "contactEmail", s(v, "contactEmail")))
        (text_field("Country code", "country", s(v, "country")))
    }
}

/// `/vendors`.
pub fn vendors(state: &Value) -> (String, Markup) {
    let actions = html! { a.button.primary href="/vendors/new" { "Add vendor" } };
    let content = html! {
        (head(None, "Vendors", actions))
        div.scroll {
            table.list.vendors aria-label="Vendors" {
                thead { tr { th { "Vendor" } th { "Contact email" } th { "Country" } th { "Products" } } }
                tbody {
                    @for v in arr(state, "vendors") {
                        @let id = s(v, "id");
                        tr data-id=(id) data-name=(s(v, "name")) {
                            td { a.open href={ "/vendors/" (id) } { (s(v, "name")) } }
                            td { (s(v, "contactEmail")) }
                            td { (s(v, "country")) }
                            td.num { a href={ "/products/vendor/" (id) } { (products_of(state, s(v, "name"))) " products" } }
                        }
                    }
                }
            }
        }
    };
    (
        format!("Vendors · {}", shop_name(state)),
        frame(state, "/vendors", "Vendors", &[], content),
    )
}

/// `/vendors/new`.
pub fn new_vendor(state: &Value) -> (String, Markup) {
    let content = html! {
        (head(Some(("/vendors", "Vendors")), "Add vendor", html! {}))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/create_vendor" {
                (back("/vendors/new"))
                (vendor_fields(&Value::Null))
                button type="submit" { "Add vendor" }
            }
        }
    };
    (
        format!("Add vendor · {}", shop_name(state)),
        frame(state, "/vendors", "Add vendor", &[], content),
    )
}

/// `/vendors/<id>`.
pub fn vendor(state: &Value, id: &str) -> Option<(String, Markup)> {
    let v = by_id(arr(state, "vendors"), id)?;
    let name = s(v, "name");
    let here = format!("/vendors/{id}");
    let content = html! {
        (head(Some(("/vendors", "Vendors")), name, html! {
            a href={ "/products/vendor/" (id) } { (products_of(state, name)) " products" }
        }))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/update_vendor" {
                (back(&here))
                input type="hidden" name="id" value=(id);
                (vendor_fields(v))
                p.hint { "Renaming a vendor renames it on its products too." }
                button type="submit" { "Save vendor" }
            }
        }
    };
    Some((
        format!("{name} · {}", shop_name(state)),
        frame(state, "/vendors", name, &[("id", id.to_string())], content),
    ))
}
