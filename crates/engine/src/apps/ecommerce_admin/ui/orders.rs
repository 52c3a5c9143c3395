//! Orders: the list (number, date, customer, total, payment and fulfilment) and the order page
//! (line items, totals, customer, payment and fulfilment status, the note, tags).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{
    arr, customer_name, find, money, num, product_title, s, scalar, shop_name, strs, when,
    FINANCIAL, FULFILMENT,
};
use super::shell::{frame, head, tags};
use crate::ui::kit::{plain, radios};
use crate::ui::page::back;

fn badges(o: &Value) -> Markup {
    html! {
        span.badge data-financial=(s(o, "financialStatus")) { (s(o, "financialStatus")) }
        " "
        span.badge data-fulfilment=(s(o, "fulfillmentStatus")) { (s(o, "fulfillmentStatus")) }
    }
}

/// `/orders`, newest first.
pub fn list(state: &Value) -> (String, Markup) {
    let mut orders: Vec<&Value> = arr(state, "orders").iter().collect();
    orders.sort_by(|a, b| {
        s(b, "createdAt")
            .cmp(s(a, "createdAt"))
            .then_with(|| scalar(b, "number").cmp(&scalar(a, "number")))
    });
    let content = html! {
        (head(None, "Orders", html! {}))
        div.scroll {
            table.list.orders aria-label="Orders" {
                thead { tr { th { "Order" } th { "Date" } th { "Customer" } th { "Total" } th { "Payment" } th { "Fulfilment" } th { "Tags" } } }
                tbody {
                    @for o in &orders {
                        @let n = scalar(o, "number");
                        tr data-id=(s(o, "id")) data-number=(n) {
                            td { a.open href={ "/orders/" (n) } { "#" (n) } }
                            td { (s(o, "createdAt").get(..10).unwrap_or_default()) }
                            td { (customer_name(state, s(o, "customerId"))) }
                            td.num { (money(state, num(o, "total").unwrap_or(0.0))) }
                            td { span.badge data-financial=(s(o, "financialStatus")) { (s(o, "financialStatus")) } }
                            td { span.badge data-fulfilment=(s(o, "fulfillmentStatus")) { (s(o, "fulfillmentStatus")) } }
                            td.tags { @for t in strs(o, "tags") { span.tag { (t) } } }
                        }
                    }
                }
            }
            @if orders.is_empty() { p.empty { "No orders yet." } }
        }
    };
    (
        format!("Orders · {}", shop_name(state)),
        frame(state, "/orders", "Orders", &[], content),
    )
}

/// `/orders/<number>`.
pub fn page(state: &Value, number: &str) -> Option<(String, Markup)> {
    let o = find(state, "orders", "number", number)?;
    let id = s(o, "id");
    let here = format!("/orders/{number}");
    let title = format!("Order #{number}");
    let customer = s(o, "customerId");
    let content = html! {
        (head(Some(("/orders", "Orders")), &title, badges(o)))
        div.scroll {
            div.editor {
                div.col-main {
                    section.card aria-labelledby="h-items" {
                        h2 #h-items { "Items" }
                        table.items {
                            thead { tr { th { "Product" } th { "SKU" } th { "Qty" } th { "Price" } } }
                            tbody {
                                @for li in arr(o, "lineItems") {
                                    tr {
                                        td { a href={ "/products/" (s(li, "productId")) } { (product_title(state, s(li, "productId"))) } }
                                        td { (s(li, "sku")) }
                                        td.num { (scalar(li, "quantity")) }
                                        td.num { (money(state, num(li, "price").unwrap_or(0.0))) }
                                    }
                                }
                            }
                        }
                        dl.totals {
                            dt { "Subtotal" } dd { (money(state, num(o, "subtotal").unwrap_or(0.0))) }
                            dt { "Total" } dd { (money(state, num(o, "total").unwrap_or(0.0))) }
                        }
                    }
                    form.card.order method="post" autocomplete="off" action="/op/update_order" {
                        (back(&here))
                        input type="hidden" name="order" value=(id);
                        (radios("Payment status", "financialStatus", &plain(FINANCIAL), s(o, "financialStatus")))
                        (radios("Fulfilment status", "fulfillmentStatus", &plain(FULFILMENT), s(o, "fulfillmentStatus")))
                        div.field {
                            label for="f-note" { "Note" }
                            textarea #f-note name="note" rows="3" { (s(o, "note")) }
                        }
                        button type="submit" { "Save order" }
                    }
                }
                div.col-side {
                    section.card aria-labelledby="h-customer" {
                        h2 #h-customer { "Customer" }
                        a href={ "/customers/" (customer) } { (customer_name(state, customer)) }
                        p.hint { "Placed " (when(s(o, "createdAt"))) }
                    }
                    (tags("orders", id, o, &here))
                }
            }
        }
    };
    Some((
        format!("{title} · {}", shop_name(state)),
        frame(
            state,
            "/orders",
            &title,
            &[("id", id.to_string()), ("number", number.to_string())],
            content,
        ),
    ))
}
