//! The ecommerce-admin UI: a shop back office like Shopify's admin — products (list with
//! status and vendor filters and bulk status; the product editor: title, description, status,
//! vendor, type, price, compare-at price, SKU, inventory, handle, collections, tags; create
//! product), orders (list; order page with payment and fulfilment status, note, tags),
//! customers (list; customer page with contact details, location, marketing consent, tags),
//! collections, vendors, discounts and the store settings.
//!
//! Pages: `/` (the products list), `/products`, `/products/{status,vendor}/<x>`,
//! `/products/new`, `/products/<id>`, `/orders`, `/orders/<number>`, `/customers`,
//! `/customers/<id>`, `/collections`, `/collections/new`, `/collections/<id>`, `/vendors`,
//! `/vendors/new`, `/vendors/<id>`, `/discounts`, `/discounts/new`, `/discounts/<id>`,
//! `/settings`. Operations: [`ops::OPS`]. Opening a page never writes.

mod catalog;
mod customers;
mod input;
mod marketing;
pub mod model;
pub mod ops;
mod orders;
pub mod planner;
mod product;
mod products;
mod record_ops;
mod shell;

#[cfg(test)]
mod tests;

use maud::Markup;
use serde_json::Value;

use crate::ui::{AppUi, Ctx, Done, FormData, OpError};
use products::Filter;

/// The ecommerce-admin UI.
pub struct EcommerceAdmin;

impl AppUi for EcommerceAdmin {
    fn app(&self) -> &'static str {
        "ecommerce-admin"
    }

    fn css(&self) -> &'static str {
        include_str!("../ui.css")
    }

    fn page(&self, path: &str, state: &Value, _ctx: &Ctx) -> Option<(String, Markup)> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match parts.as_slice() {
            [""] | ["products"] => products::page(state, Filter::All),
            ["products", "status", st] => products::page(state, Filter::Status(st)),
            ["products", "vendor", v] => products::page(state, Filter::Vendor(v)),
            ["products", "new"] => Some(product::new(state)),
            ["products", id] => product::edit(state, id),
            ["orders"] => Some(orders::list(state)),
            ["orders", n] => orders::page(state, n),
            ["customers"] => Some(customers::list(state)),
            ["customers", id] => customers::page(state, id),
            ["collections"] => Some(catalog::collections(state)),
            ["collections", "new"] => Some(catalog::new_collection(state)),
            ["collections", id] => catalog::collection(state, id),
            ["vendors"] => Some(catalog::vendors(state)),
            ["vendors", "new"] => Some(catalog::new_vendor(state)),
            ["vendors", id] => catalog::vendor(state, id),
            ["discounts"] => Some(marketing::discounts(state)),
            ["discounts", "new"] => Some(marketing::new_discount(state)),
            ["discounts", id] => marketing::discount(state, id),
            ["settings"] => Some(marketing::settings(state)),
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
