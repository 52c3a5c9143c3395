//! The operations on orders, customers, collections, vendors, discounts and the store
//! settings: each checks its input, writes only what changed and says so in its banner.

use serde_json::{json, Map, Value};

use super::input::{country, date, handle, money, number, saved, write};
use super::model::{arr, by_id, s, DISCOUNT_TYPES, FINANCIAL, FULFILMENT};
use super::ops::rec_mut;
use crate::ui::kit::{err, list_mut, one_of};
use crate::ui::kit::{address, next_id, text_block};
use crate::ui::{Ctx, Done, FormData, OpError};

/// Runs one of these operations.
pub fn apply(op: &str, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    match op {
        "update_order" => update_order(form, state),
        "update_customer" => update_customer(form, state),
        "create_collection" | "update_collection" => collection(op, form, state),
        "create_vendor" | "update_vendor" => vendor(op, form, ctx, state),
        "create_discount" | "update_discount" => discount(op, form, state),
        "update_store" => update_store(form, state),
        other => err(format!("unknown operation {other:?}")),
    }
}

/// Edits record `id` of `key` with `set`; the banner names the record by `label`.
fn edit(
    state: &mut Value,
    key: &str,
    id: &str,
    what: &str,
    label: &str,
    set: Vec<(&str, Value)>,
) -> Result<Done, OpError> {
    let changed = write(rec_mut(state, key, id, what)?, set);
    Ok(Done {
        message: saved(label, &changed),
        go: None,
    })
}

/// Appends a new record to `key` and goes to its page.
fn create(
    state: &mut Value,
    key: &str,
    rec: Map<String, Value>,
    message: String,
) -> Result<Done, OpError> {
    let id = s(&Value::Object(rec.clone()), "id").to_string();
    list_mut(state, key)?.push(Value::Object(rec));
    Ok(Done {
        message,
        go: Some(format!("/{key}/{id}")),
    })
}

fn update_order(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("order", "The order")?.to_string();
    let Some(o) = by_id(arr(state, "orders"), &id) else {
        return err(format!("there is no order {id:?}"));
    };
    let label = format!("order #{}", super::model::scalar(o, "number"));
    let set = vec![
        (
            "financialStatus",
            json!(one_of(
                form.required("financialStatus")?,
                FINANCIAL,
                "The payment status"
            )?),
        ),
        (
            "fulfillmentStatus",
            json!(one_of(
                form.required("fulfillmentStatus")?,
                FULFILMENT,
                "The fulfilment status"
            )?),
        ),
        ("note", json!(text_block(form.required("note")?).trim())),
    ];
    edit(state, "orders", &id, "order", &label, set)
}

fn update_customer(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("customer", "The customer")?.to_string();
    if by_id(arr(state, "customers"), &id).is_none() {
        return err(format!("there is no customer {id:?}"));
    }
    let email = address(form.required("email")?)?;
    if let Some(other) = arr(state, "customers")
        .iter()
        .find(|c| s(c, "email") == email && s(c, "id") != id)
    {
        return err(format!(
            "{email} is already the email of {}",
            super::model::customer_name(state, s(other, "id"))
        ));
    }
    let first = form.required("firstName")?.trim().to_string();
    let last = form.required("lastName")?.trim().to_string();
    let set = vec![
        ("firstName", json!(first)),
        ("lastName", json!(last)),
        ("email", json!(email)),
        ("phone", json!(form.required("phone")?.trim())),
        ("city", json!(form.required("city")?.trim())),
        ("country", country(form.required("country")?)?),
        ("acceptsMarketing", json!(form.checked("acceptsMarketing"))),
    ];
    let label = format!("{first} {last}").trim().to_string();
    edit(state, "customers", &id, "customer", &label, set)
}

fn collection(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = match op {
        "update_collection" => form.non_blank("id", "The collection")?.to_string(),
        _ => next_id(arr(state, "collections"), "col", 0),
    };
    let title = form.non_blank("title", "The title")?.to_string();
    let set = vec![
        ("title", json!(title)),
        (
            "handle",
            handle(
                state,
                "collections",
                &id,
                form.get("handle").unwrap_or_default(),
                &title,
            )?,
        ),
        (
            "description",
            json!(text_block(form.required("description")?).trim()),
        ),
    ];
    if op == "update_collection" {
        return edit(state, "collections", &id, "collection", &title, set);
    }
    let mut rec = Map::new();
    rec.insert("id".into(), json!(id));
    write(&mut rec, set);
    create(
        state,
        "collections",
        rec,
        format!("Created collection {title}"),
    )
}

fn vendor(op: &str, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let id = match op {
        "update_vendor" => form.non_blank("id", "The vendor")?.to_string(),
        _ => next_id(arr(state, "vendors"), "v", 0),
    };
    let name = form.non_blank("name", "The vendor name")?.to_string();
    if arr(state, "vendors")
        .iter()
        .any(|v| s(v, "name") == name && s(v, "id") != id)
    {
        return err(format!("A vendor named {name:?} already exists"));
    }
    let set = vec![
        ("name", json!(name)),
        (
            "contactEmail",
            json!(address(form.required("contactEmail")?)?),
        ),
        ("country", country(form.required("country")?)?),
    ];
    if op == "create_vendor" {
        let mut rec = Map::new();
        rec.insert("id".into(), json!(id));
        write(&mut rec, set);
        return create(state, "vendors", rec, format!("Added vendor {name}"));
    }
    let Some(old) = by_id(arr(state, "vendors"), &id).map(|v| s(v, "name").to_string()) else {
        return err(format!("there is no vendor {id:?}"));
    };
    let mut done = edit(state, "vendors", &id, "vendor", &name, set)?;
    if old != name {
        let mut moved = 0;
        for p in list_mut(state, "products")? {
            if let Some(p) = p
                .as_object_mut()
                .filter(|p| p.get("vendor") == Some(&json!(old)))
            {
                p.insert("vendor".into(), json!(name));
                p.insert("updatedAt".into(), json!(ctx.today.rfc3339()));
                moved += 1;
            }
        }
        done.message = format!("{} (and renamed on {moved} products)", done.message);
    }
    Ok(done)
}

fn discount(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = match op {
        "update_discount" => form.non_blank("id", "The discount")?.to_string(),
        _ => next_id(arr(state, "discounts"), "disc", 0),
    };
    let code = form.non_blank("code", "The discount code")?.to_string();
    if code.chars().any(char::is_whitespace) {
        return err(format!("A discount code has no spaces: {code:?}"));
    }
    if arr(state, "discounts")
        .iter()
        .any(|d| s(d, "code").eq_ignore_ascii_case(&code) && s(d, "id") != id)
    {
        return err(format!(
            "The code {code:?} is already used by another discount"
        ));
    }
    let kind = one_of(form.required("type")?, DISCOUNT_TYPES, "The type")?;
    let value = money(form.required("value")?, "The value", false)?
        .as_f64()
        .unwrap_or_default();
    if value <= 0.0 || (kind == "percentage" && value > 100.0) {
        return err(format!(
            "A {kind} discount's value must be {}, not {value}",
            if kind == "percentage" {
                "between 1 and 100"
            } else {
                "more than 0"
            }
        ));
    }
    let set = vec![
        ("code", json!(code)),
        ("type", json!(kind)),
        ("value", number(value)),
        ("active", json!(form.checked("active"))),
        ("endsAt", date(form.required("endsAt")?, "The end date")?),
    ];
    if op == "update_discount" {
        return edit(state, "discounts", &id, "discount", &code, set);
    }
    let mut rec = Map::new();
    rec.insert("id".into(), json!(id));
    write(&mut rec, set);
    rec.insert("usageCount".into(), json!(0));
    create(state, "discounts", rec, format!("Created discount {code}"))
}

fn update_store(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let currency = form.non_blank("currency", "The currency")?.to_uppercase();
    if currency.len() != 3 || !currency.chars().all(|c| c.is_ascii_alphabetic()) {
        return err(format!(
            "The currency must be a three-letter code like USD, not {currency:?}"
        ));
    }
    let set = vec![
        ("name", json!(form.non_blank("name", "The store name")?)),
        ("email", json!(address(form.required("email")?)?)),
        ("currency", json!(currency)),
        (
            "timezone",
            json!(form.non_blank("timezone", "The time zone")?),
        ),
    ];
    let obj = state
        .as_object_mut()
        .ok_or_else(|| OpError("the state is not an object".into()))?
        .entry("store")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or_else(|| OpError("`store` is not an object".into()))?;
    let changed = write(obj, set);
    Ok(Done {
        message: saved("the settings", &changed),
        go: None,
    })
}
