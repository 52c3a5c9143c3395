//! Customers: the list (name, email, location, orders, amount spent, marketing, tags) and the
//! customer page (name, email, phone, city, country, email marketing consent, tags, orders).

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, b, by_id, customer_name, money, num, s, scalar, shop_name, strs};
use super::shell::{checkbox, frame, head, tags, text_field};
use crate::ui::page::back;

/// `/customers`.
pub fn list(state: &Value) -> (String, Markup) {
    let customers = arr(state, "customers");
    let content = html! {
        (head(None, "Customers", html! {}))
        div.scroll {
            table.list.customers aria-label="Customers" {
                thead { tr { th { "Customer" } th { "Email" } th { "Location" } th { "Orders" } th { "Spent" } th { "Marketing" } th { "Tags" } } }
                tbody {
                    @for c in customers {
                        @let id = s(c, "id");
                        tr data-id=(id) data-email=(s(c, "email")) {
                            td { a.open href={ "/customers/" (id) } { (customer_name(state, id)) } }
                            td { (s(c, "email")) }
                            td { (s(c, "city")) ", " (s(c, "country")) }
                            td.num { (scalar(c, "ordersCount")) }
                            td.num { (money(state, num(c, "totalSpent").unwrap_or(0.0))) }
                            td { @if b(c, "acceptsMarketing") { span.badge.yes { "Subscribed" } } @else { span.badge { "Not subscribed" } } }
                            td.tags { @for t in strs(c, "tags") { span.tag { (t) } } }
                        }
                    }
                }
            }
            @if customers.is_empty() { p.empty { "No customers yet." } }
        }
    };
    (
        format!("Customers · {}", shop_name(state)),
        frame(state, "/customers", "Customers", &[], content),
    )
}

/// `/customers/<id>`.
pub fn page(state: &Value, id: &str) -> Option<(String, Markup)> {
    let c = by_id(arr(state, "customers"), id)?;
    let here = format!("/customers/{id}");
    let name = customer_name(state, id);
    let orders: Vec<&Value> = arr(state, "orders")
        .iter()
        .filter(|o| s(o, "customerId") == id)
        .collect();
    let content = html! {
        (head(Some(("/customers", "Customers")), &name, html! {}))
        div.scroll {
            div.editor {
                div.col-main {
                    form.card.customer method="post" autocomplete="off" action="/op/update_customer" {
                        (back(&here))
                        input type="hidden" name="customer" value=(id);
                        div.row {
                            (text_field("First name", "firstName", s(c, "firstName")))
                            (text_field("Last name", "lastName", s(c, "lastName")))
                        }
                        div.row {
                            (text_field("Email", "email", s(c, "email")))
                            (text_field("Phone", "phone", s(c, "phone")))
                        }
                        div.row {
                            (text_field("City", "city", s(c, "city")))
                            (text_field("Country code", "country", s(c, "country")))
                        }
                        (checkbox("Email me with news and offers (accepts marketing)", "acceptsMarketing", b(c, "acceptsMarketing")))
                        div { button type="submit" { "Save customer" } }
                    }
                    section.card aria-labelledby="h-orders" {
                        h2 #h-orders { "Orders (" (orders.len()) ")" }
                        ul.plain {
                            @for o in &orders {
                                @let n = scalar(o, "number");
                                li { a href={ "/orders/" (n) } { "#" (n) } " · " (money(state, num(o, "total").unwrap_or(0.0))) " · " (s(o, "financialStatus")) }
                            }
                        }
                        p.hint { "Amount spent: " (money(state, num(c, "totalSpent").unwrap_or(0.0))) }
                    }
                }
                div.col-side { (tags("customers", id, c, &here)) }
            }
        }
    };
    Some((
        format!("{name} · {}", shop_name(state)),
        frame(
            state,
            "/customers",
            &name,
            &[("id", id.to_string()), ("email", s(c, "email").to_string())],
            content,
        ),
    ))
}
