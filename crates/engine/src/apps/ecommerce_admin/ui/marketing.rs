//! Discounts (list, create, edit: code, type, value, active, end date) and the store settings.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, b, by_id, num, plain_number, s, scalar, shop_name, DISCOUNT_TYPES};
use super::shell::{checkbox, frame, head, text_field};
use crate::ui::kit::{plain, radios};
use crate::ui::page::back;

fn value_text(d: &Value) -> String {
    let v = plain_number(num(d, "value"));
    match s(d, "type") {
        "percentage" => format!("{v}% off"),
        _ => format!("{v} off"),
    }
}

fn discount_fields(d: &Value, active: bool) -> Markup {
    let kind = match s(d, "type") {
        "" => "percentage",
        k => k,
    };
    html! {
        (text_field("Discount code", "code", s(d, "code")))
        (radios("Type", "type", &plain(DISCOUNT_TYPES), kind))
        (text_field("Value", "value", &plain_number(num(d, "value"))))
        p.hint { "A percentage (1–100) or a fixed amount in the store's currency." }
        (text_field("End date (YYYY-MM-DD)", "endsAt", s(d, "endsAt")))
        p.hint { "Blank: no end date." }
        (checkbox("Active", "active", active))
    }
}

/// `/discounts`.
pub fn discounts(state: &Value) -> (String, Markup) {
    let actions = html! { a.button.primary href="/discounts/new" { "Create discount" } };
    let content = html! {
        (head(None, "Discounts", actions))
        div.scroll {
            table.list.discounts aria-label="Discounts" {
                thead { tr { th { "Code" } th { "Value" } th { "Status" } th { "Used" } th { "Ends" } } }
                tbody {
                    @for d in arr(state, "discounts") {
                        @let id = s(d, "id");
                        tr data-id=(id) data-code=(s(d, "code")) {
                            td { a.open href={ "/discounts/" (id) } { (s(d, "code")) } }
                            td { (value_text(d)) }
                            td { @if b(d, "active") { span.badge.yes { "Active" } } @else { span.badge { "Inactive" } } }
                            td.num { (scalar(d, "usageCount")) }
                            td { @match s(d, "endsAt") { "" => "No end date", e => (e) } }
                        }
                    }
                }
            }
        }
    };
    (
        format!("Discounts · {}", shop_name(state)),
        frame(state, "/discounts", "Discounts", &[], content),
    )
}

/// `/discounts/new`.
pub fn new_discount(state: &Value) -> (String, Markup) {
    let content = html! {
        (head(Some(("/discounts", "Discounts")), "Create discount", html! {}))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/create_discount" {
                (back("/discounts/new"))
                (discount_fields(&Value::Null, true))
                button type="submit" { "Create discount" }
            }
        }
    };
    (
        format!("Create discount · {}", shop_name(state)),
        frame(state, "/discounts", "Create discount", &[], content),
    )
}

/// `/discounts/<id>`.
pub fn discount(state: &Value, id: &str) -> Option<(String, Markup)> {
    let d = by_id(arr(state, "discounts"), id)?;
    let code = s(d, "code");
    let here = format!("/discounts/{id}");
    let content = html! {
        (head(Some(("/discounts", "Discounts")), code, html! { span.hint { "Used " (scalar(d, "usageCount")) " times" } }))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/update_discount" {
                (back(&here))
                input type="hidden" name="id" value=(id);
                (discount_fields(d, b(d, "active")))
                button type="submit" { "Save discount" }
            }
        }
    };
    Some((
        format!("{code} · {}", shop_name(state)),
        frame(
            state,
            "/discounts",
            code,
            &[("id", id.to_string()), ("code", code.to_string())],
            content,
        ),
    ))
}

/// `/settings`: the store's name, contact email, currency and time zone.
pub fn settings(state: &Value) -> (String, Markup) {
    let st = state.get("store").unwrap_or(&Value::Null);
    let content = html! {
        (head(None, "Settings", html! {}))
        div.scroll {
            form.card method="post" autocomplete="off" action="/op/update_store" {
                (back("/settings"))
                (text_field("Store name", "name", s(st, "name")))
                (text_field("Store contact email", "email", s(st, "email")))
                (text_field("Currency (ISO code)", "currency", s(st, "currency")))
                (text_field("Time zone", "timezone", s(st, "timezone")))
                button type="submit" { "Save settings" }
            }
        }
    };
    (
        format!("Settings · {}", shop_name(state)),
        frame(state, "/settings", "Settings", &[], content),
    )
}
