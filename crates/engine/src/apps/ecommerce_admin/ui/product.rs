//! The product editor (`/products/<id>`) and the create-product form (`/products/new`): title,
//! description, status, vendor (from the vendor list), product type, price and compare-at
//! price, SKU and inventory, handle, collections; tags on the editor's own panel.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{
    arr, by_id, num, plain_number, s, shop_name, strs, vendor_names, when, STATUSES,
};
use super::shell::{frame, head, tags, text_field};
use crate::ui::kit::{plain, radios};
use crate::ui::page::back;

/// The fields both forms share, filled from `p` (an empty object for a new product).
fn fields(state: &Value, p: &Value) -> Markup {
    let vendors: Vec<(String, String)> = vendor_names(state)
        .into_iter()
        .map(|n| (n.clone(), n))
        .collect();
    let mine = strs(p, "collections");
    let status = match s(p, "status") {
        "" => "draft",
        st => st,
    };
    html! {
        div.editor {
            div.col-main {
                section.card {
                    (text_field("Title", "title", s(p, "title")))
                    div.field {
                        label for="f-description" { "Description" }
                        textarea #f-description name="description" rows="5" { (s(p, "description")) }
                    }
                }
                section.card aria-labelledby="h-pricing" {
                    h2 #h-pricing { "Pricing" }
                    div.row {
                        (text_field("Price", "price", &plain_number(num(p, "price"))))
                        (text_field("Compare-at price", "compareAtPrice", &plain_number(num(p, "compareAtPrice"))))
                    }
                    p.hint { "Leave the compare-at price blank for no sale price." }
                }
                section.card aria-labelledby="h-inventory" {
                    h2 #h-inventory { "Inventory" }
                    div.row {
                        (text_field("SKU", "sku", s(p, "sku")))
                        (text_field("Quantity in stock", "inventory", &plain_number(num(p, "inventory"))))
                    }
                }
                section.card aria-labelledby="h-seo" {
                    h2 #h-seo { "Search listing" }
                    (text_field("Handle", "handle", s(p, "handle")))
                    p.hint { "Blank: made from the title." }
                }
            }
            div.col-side {
                section.card { (radios("Status", "status", &plain(STATUSES), status)) }
                section.card aria-labelledby="h-org" {
                    h2 #h-org { "Organization" }
                    (radios("Vendor", "vendor", &vendors, s(p, "vendor")))
                    (text_field("Product type", "productType", s(p, "productType")))
                }
                section.card {
                    fieldset.checks {
                        legend { "Collections" }
                        @for c in arr(state, "collections") {
                            @let id = s(c, "id");
                            label.choice {
                                input type="checkbox" name="collection" value=(id) checked[mine.contains(&id)];
                                (s(c, "title"))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `/products/<id>`.
pub fn edit(state: &Value, id: &str) -> Option<(String, Markup)> {
    let p = by_id(arr(state, "products"), id)?;
    let here = format!("/products/{id}");
    let title = s(p, "title");
    let content = html! {
        (head(Some(("/products", "Products")), title, html! {
            span.badge data-status=(s(p, "status")) { (s(p, "status")) }
        }))
        div.scroll {
            form.product method="post" autocomplete="off" action="/op/update_product" {
                (back(&here))
                input type="hidden" name="product" value=(id);
                (fields(state, p))
                div.savebar { button type="submit" { "Save product" } }
            }
            (tags("products", id, p, &here))
            dl.facts {
                dt { "Created" } dd { (when(s(p, "createdAt"))) }
                dt { "Updated" } dd { (when(s(p, "updatedAt"))) }
            }
        }
    };
    Some((
        format!("{title} · {}", shop_name(state)),
        frame(
            state,
            "/products",
            title,
            &[("id", id.to_string())],
            content,
        ),
    ))
}

/// `/products/new`.
pub fn new(state: &Value) -> (String, Markup) {
    let content = html! {
        (head(Some(("/products", "Products")), "Add product", html! {}))
        div.scroll {
            form.product method="post" autocomplete="off" action="/op/create_product" {
                (back("/products/new"))
                (fields(state, &Value::Object(Default::default())))
                section.card { (text_field("Tags (comma separated)", "tags", "")) }
                div.savebar { button type="submit" { "Create product" } }
            }
        }
    };
    (
        format!("Add product · {}", shop_name(state)),
        frame(state, "/products", "Add product", &[], content),
    )
}
