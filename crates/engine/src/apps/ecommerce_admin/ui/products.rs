//! The products list: filters by status and by vendor, a table of every product (title,
//! status, inventory, vendor, price, tags) with a tick box per row, and the bulk status bar.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, by_id, money, num, s, strs, STATUSES};
use super::shell::{frame, head};
use crate::ui::page::back;

/// Which products a list shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Filter<'a> {
    /// Every product.
    All,
    /// Products with this status.
    Status(&'a str),
    /// Products of the vendor with this id.
    Vendor(&'a str),
}

fn status_badge(status: &str) -> Markup {
    html! { span.badge data-status=(status) { (status) } }
}

fn filters(state: &Value, here: &str) -> Markup {
    html! {
        nav.filters aria-label="Filter by status" {
            a.current[here == "/products"] href="/products" { "All" }
            @for st in STATUSES {
                @let href = format!("/products/status/{st}");
                a.current[here == href] href=(href) data-status=(st) { (st) }
            }
        }
        nav.filters.vendors aria-label="Filter by vendor" {
            span.label { "Vendor:" }
            @for v in arr(state, "vendors") {
                @let href = format!("/products/vendor/{}", s(v, "id"));
                a.current[here == href] href=(href) data-vendor=(s(v, "name")) { (s(v, "name")) }
            }
        }
    }
}

fn row(state: &Value, p: &Value) -> Markup {
    let id = s(p, "id");
    let inv = num(p, "inventory").unwrap_or(0.0);
    html! {
        tr data-id=(id) data-status=(s(p, "status")) {
            td.tick { input type="checkbox" form="bulk" name="product" value=(id) aria-label={ "Select " (s(p, "title")) }; }
            td.title { a.open href={ "/products/" (id) } { (s(p, "title")) } }
            td { (status_badge(s(p, "status"))) }
            td.num.low[inv <= 0.0] { (inv as i64) " in stock" }
            td { (s(p, "vendor")) }
            td.num { (money(state, num(p, "price").unwrap_or(0.0))) }
            td.tags { @for t in strs(p, "tags") { span.tag { (t) } } }
        }
    }
}

/// `/products`, `/products/status/<s>`, `/products/vendor/<id>`.
pub fn page(state: &Value, filter: Filter<'_>) -> Option<(String, Markup)> {
    let (here, title, vendor) = match filter {
        Filter::All => ("/products".to_string(), "Products".to_string(), None),
        Filter::Status(st) if STATUSES.contains(&st) => (
            format!("/products/status/{st}"),
            format!("Products · {st}"),
            None,
        ),
        Filter::Status(_) => return None,
        Filter::Vendor(v) => {
            let name = s(by_id(arr(state, "vendors"), v)?, "name");
            (
                format!("/products/vendor/{v}"),
                format!("Products · {name}"),
                Some(name),
            )
        }
    };
    let list: Vec<&Value> = arr(state, "products")
        .iter()
        .filter(|p| match filter {
            Filter::All => true,
            Filter::Status(st) => s(p, "status") == st,
            Filter::Vendor(_) => Some(s(p, "vendor")) == vendor,
        })
        .collect();
    let actions = html! { a.button.primary href="/products/new" { "Add product" } };
    let mut data = Vec::new();
    if let Some(name) = vendor {
        data.push(("vendor", name.to_string()));
    }
    if let Filter::Status(st) = filter {
        data.push(("status", st.to_string()));
    }
    let content = html! {
        (head(None, &title, actions))
        (filters(state, &here))
        form #bulk .bulk method="post" action="/op/bulk_status" {
            (back(&here))
            span.label { "Selected products:" }
            button type="submit" name="status" value="active" { "Set as active" }
            button type="submit" name="status" value="draft" { "Set as draft" }
            button type="submit" name="status" value="archived" { "Archive" }
        }
        div.scroll {
            table.list.products aria-label="Products" {
                thead { tr { th { span.sr { "Select" } } th { "Product" } th { "Status" } th { "Inventory" } th { "Vendor" } th { "Price" } th { "Tags" } } }
                tbody { @for p in &list { (row(state, p)) } }
            }
            @if list.is_empty() { p.empty { "No products match this filter." } }
            p.count { (list.len()) " of " (arr(state, "products").len()) " products" }
        }
    };
    Some((
        format!("{title} · {}", super::model::shop_name(state)),
        frame(state, "/products", &title, &data, content),
    ))
}
