//! The product and tag operations of the shop admin, and the list of every operation. Each
//! edits the session's document the way the admin would (values checked, `updatedAt` stamped
//! only when something changed) and names what was wrong when the input is bad. Every action is
//! a set: saving a form twice, or adding a tag a record has, changes nothing.

use serde_json::{json, Map, Value};

use super::input::{count, handle, money, saved, tag, tag_list, write};
use super::model::{arr, by_id, s, strs, vendor_names, STATUSES};
use super::record_ops;
use crate::ui::kit::{err, list_mut, one_of};
use crate::ui::kit::{next_id, text_block};
use crate::ui::{Ctx, Done, FormData, OpError};

const PRODUCT_FIELDS: &[&str] = &[
    "products.title",
    "products.description",
    "products.status",
    "products.vendor",
    "products.productType",
    "products.price",
    "products.compareAtPrice",
    "products.sku",
    "products.inventory",
    "products.handle",
    "products.collections",
    "products.updatedAt",
];

/// Every operation, with the state paths it can write (checked against the shipped tasks).
pub const OPS: &[(&str, &[&str])] = &[
    ("update_product", PRODUCT_FIELDS),
    ("create_product", &["products"]),
    ("bulk_status", &["products.status", "products.updatedAt"]),
    (
        "add_tag",
        &[
            "products.tags",
            "products.updatedAt",
            "orders.tags",
            "customers.tags",
        ],
    ),
    (
        "remove_tag",
        &[
            "products.tags",
            "products.updatedAt",
            "orders.tags",
            "customers.tags",
        ],
    ),
    (
        "update_order",
        &[
            "orders.financialStatus",
            "orders.fulfillmentStatus",
            "orders.note",
        ],
    ),
    (
        "update_customer",
        &[
            "customers.firstName",
            "customers.lastName",
            "customers.email",
            "customers.phone",
            "customers.city",
            "customers.country",
            "customers.acceptsMarketing",
        ],
    ),
    ("create_collection", &["collections"]),
    (
        "update_collection",
        &[
            "collections.title",
            "collections.handle",
            "collections.description",
        ],
    ),
    ("create_vendor", &["vendors"]),
    (
        "update_vendor",
        &[
            "vendors.name",
            "vendors.contactEmail",
            "vendors.country",
            "products.vendor",
            "products.updatedAt",
        ],
    ),
    ("create_discount", &["discounts"]),
    (
        "update_discount",
        &[
            "discounts.code",
            "discounts.type",
            "discounts.value",
            "discounts.active",
            "discounts.endsAt",
        ],
    ),
    (
        "update_store",
        &[
            "store.name",
            "store.email",
            "store.currency",
            "store.timezone",
        ],
    ),
];

/// Runs operation `op` on `state`.
pub fn apply(op: &str, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    match op {
        "update_product" => update_product(form, ctx, state),
        "create_product" => create_product(form, ctx, state),
        "bulk_status" => bulk_status(form, ctx, state),
        "add_tag" | "remove_tag" => tags(op == "add_tag", form, ctx, state),
        _ => record_ops::apply(op, form, ctx, state),
    }
}

/// The record of `key` whose `id` is `id`, for writing; `what` names it in the error.
pub fn rec_mut<'a>(
    state: &'a mut Value,
    key: &str,
    id: &str,
    what: &str,
) -> Result<&'a mut Map<String, Value>, OpError> {
    list_mut(state, key)?
        .iter_mut()
        .find(|r| s(r, "id") == id)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| OpError(format!("there is no {what} {id:?}")))
}

/// The product fields of a submitted product form, checked; `id` is the product's own (for
/// the handle), `before` its current collections (kept in their order).
fn product_fields(
    form: &FormData,
    state: &Value,
    id: &str,
    before: &[&str],
) -> Result<Vec<(&'static str, Value)>, OpError> {
    let title = form.non_blank("title", "The title")?.to_string();
    let vendor = form.get("vendor").unwrap_or_default().trim().to_string();
    if !vendor.is_empty() && !vendor_names(state).contains(&vendor) {
        return err(format!(
            "There is no vendor {vendor:?}: add it on the Vendors page first"
        ));
    }
    let mut collections: Vec<String> = Vec::new();
    let ticked = form.all("collection");
    for c in &ticked {
        if by_id(arr(state, "collections"), c).is_none() {
            return err(format!("there is no collection {c:?}"));
        }
    }
    for c in before.iter().filter(|c| ticked.contains(c)) {
        collections.push(c.to_string());
    }
    for c in arr(state, "collections").iter().map(|c| s(c, "id")) {
        if ticked.contains(&c) && !collections.iter().any(|x| x == c) {
            collections.push(c.to_string());
        }
    }
    Ok(vec![
        (
            "handle",
            handle(
                state,
                "products",
                id,
                form.get("handle").unwrap_or_default(),
                &title,
            )?,
        ),
        ("title", json!(title)),
        (
            "description",
            json!(text_block(form.required("description")?).trim_end()),
        ),
        (
            "status",
            json!(one_of(form.required("status")?, STATUSES, "The status")?),
        ),
        ("vendor", json!(vendor)),
        (
            "productType",
            json!(form.get("productType").unwrap_or_default().trim()),
        ),
        ("price", money(form.required("price")?, "The price", false)?),
        (
            "compareAtPrice",
            money(
                form.required("compareAtPrice")?,
                "The compare-at price",
                true,
            )?,
        ),
        ("sku", json!(form.get("sku").unwrap_or_default().trim())),
        (
            "inventory",
            count(form.required("inventory")?, "The quantity in stock")?,
        ),
        ("collections", json!(collections)),
    ])
}

fn update_product(form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("product", "The product")?.to_string();
    let Some(before) = by_id(arr(state, "products"), &id).cloned() else {
        return err(format!("there is no product {id:?}"));
    };
    let set = product_fields(form, state, &id, &strs(&before, "collections"))?;
    let rec = rec_mut(state, "products", &id, "product")?;
    let changed = write(rec, set);
    if !changed.is_empty() {
        rec.insert("updatedAt".into(), json!(ctx.today.rfc3339()));
    }
    let title = s(&Value::Object(rec.clone()), "title").to_string();
    Ok(Done {
        message: saved(&title, &changed),
        go: None,
    })
}

fn create_product(form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let set = product_fields(form, state, "", &[])?;
    let id = next_id(arr(state, "products"), "prod", 3);
    let tags = tag_list(form.get("tags").unwrap_or_default())?;
    let mut rec = Map::new();
    rec.insert("id".into(), json!(id));
    write(&mut rec, set);
    rec.insert("tags".into(), json!(tags));
    let now = ctx.today.rfc3339();
    rec.insert("createdAt".into(), json!(now));
    rec.insert("updatedAt".into(), json!(now));
    let title = s(&Value::Object(rec.clone()), "title").to_string();
    list_mut(state, "products")?.push(Value::Object(rec));
    Ok(Done {
        message: format!("Created product {title}"),
        go: Some(format!("/products/{id}")),
    })
}

fn bulk_status(form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let ids: Vec<String> = form.all("product").iter().map(|p| p.to_string()).collect();
    if ids.is_empty() {
        return err("Select at least one product first");
    }
    let status = one_of(form.required("status")?, STATUSES, "The status")?;
    for id in &ids {
        if by_id(arr(state, "products"), id).is_none() {
            return err(format!("there is no product {id:?}"));
        }
    }
    let mut n = 0;
    for id in &ids {
        let rec = rec_mut(state, "products", id, "product")?;
        if !write(rec, vec![("status", json!(status))]).is_empty() {
            rec.insert("updatedAt".into(), json!(ctx.today.rfc3339()));
            n += 1;
        }
    }
    let what = if ids.len() == 1 {
        "product"
    } else {
        "products"
    };
    Ok(Done {
        message: format!("Set {} {what} to {status} ({n} changed)", ids.len()),
        go: None,
    })
}

fn tags(add: bool, form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let coll = form.required("collection")?;
    let what = match coll {
        "products" => "product",
        "orders" => "order",
        "customers" => "customer",
        other => return err(format!("{other:?} records have no tags")),
    };
    let coll = coll.to_string();
    let id = form.non_blank("record", "The record")?.to_string();
    let t = tag(form.required("tag")?)?;
    let rec = rec_mut(state, &coll, &id, what)?;
    let mut now: Vec<String> = strs(&Value::Object(rec.clone()), "tags")
        .into_iter()
        .map(String::from)
        .collect();
    let had = now.contains(&t);
    if add && !had {
        now.push(t.clone());
    } else if !add {
        now.retain(|x| *x != t);
    }
    let changed = !write(rec, vec![("tags", json!(now))]).is_empty();
    if changed && coll == "products" {
        rec.insert("updatedAt".into(), json!(ctx.today.rfc3339()));
    }
    let message = match (add, had) {
        (true, false) => format!("Added tag {t}"),
        (true, true) => format!("Already tagged {t}"),
        (false, true) => format!("Removed tag {t}"),
        (false, false) => format!("Not tagged {t}"),
    };
    Ok(Done { message, go: None })
}
