//! Tests of the ecommerce-admin UI over real HTTP (a loopback origin bound to one session of a
//! real session store) and of its forms submitted as a browser would: every shipped task done
//! with the forms of its pages, the crawl, bad input, idempotence, determinism.

use serde_json::{json, Value};

use super::ops::OPS;
use crate::ui::test_forms::{holds, submit, text};
use crate::ui::tests::{crawl, fixture};
use crate::ui::{Ctx, Today};

const APP: &str = "ecommerce-admin";

fn ctx() -> Ctx {
    Ctx {
        today: Today::parse("2026-03-05T10:00:00Z").unwrap(),
    }
}

fn by<'a>(state: &'a Value, coll: &str, field: &str, key: &Value) -> &'a Value {
    state[coll]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| &r[field] == key)
        .unwrap_or_else(|| panic!("no {coll} with {field} = {key}"))
}

fn tasks() -> Vec<Value> {
    let all: Value = serde_json::from_str(include_str!(
        "../tasks.json"
    ))
    .unwrap();
    all["tasks"].as_array().unwrap().clone()
}

/// The state a task starts from: the seed with its setup's presets (and a consolidation's new
/// vendor), as the shipped initial_setup scripts leave it.
fn initial(seed: &Value, task: &Value) -> Value {
    let mut state = seed.clone();
    let slots = &task["slots"];
    if let (Some(preset), Some(coll)) = (slots["preset"].as_object(), slots["collection"].as_str())
    {
        let kf = slots["key_field"].as_str().unwrap();
        for key in slots["keys"].as_array().unwrap() {
            let rec = state[coll]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|r| &r[kf] == key)
                .unwrap();
            preset.iter().for_each(|(k, v)| rec[k] = v.clone());
        }
    }
    if let Some(to) = slots["to_vendor"].as_str() {
        let vendors = state["vendors"].as_array_mut().unwrap();
        if !vendors.iter().any(|v| v["name"] == to) {
            vendors.push(json!({"id": "v_new", "name": to, "contactEmail": "hello@unified.example", "country": "US"}));
        }
    }
    state
}

/// The page and form that edit record `key` of `coll` (found by `kf`).
fn edit_page(state: &Value, coll: &str, kf: &str, key: &Value) -> (String, &'static str) {
    let rec = by(state, coll, kf, key);
    let id = text(&rec["id"]);
    match coll {
        "products" => (format!("/products/{id}"), "update_product"),
        "orders" => (format!("/orders/{}", text(&rec["number"])), "update_order"),
        "customers" => (format!("/customers/{id}"), "update_customer"),
        "collections" => (format!("/collections/{id}"), "update_collection"),
        "vendors" => (format!("/vendors/{id}"), "update_vendor"),
        "discounts" => (format!("/discounts/{id}"), "update_discount"),
        other => panic!("no page edits {other}"),
    }
}

/// A field as the form takes it: booleans tick a box (`true`) or untick it (`false`).
fn field(name: &str, v: &Value) -> Option<(String, String)> {
    match v {
        Value::Bool(true) => Some((name.into(), "true".into())),
        Value::Bool(false) => Some((format!("!{name}"), String::new())),
        other => Some((name.into(), text(other))),
    }
}

/// Does `task` with the forms of its pages; returns how many facts it checked.
fn do_task(state: &mut Value, task: &Value) -> usize {
    let id = task["task_id"].as_str().unwrap();
    let slots = &task["slots"];
    let ok = |r: Result<String, String>| r.unwrap_or_else(|e| panic!("{id}: {e}"));
    let mut checked = 0;
    match task["template"].as_str().unwrap() {
        "update_records" => {
            let coll = slots["collection"].as_str().unwrap();
            let kf = slots["key_field"].as_str().unwrap();
            let changes = slots["changes"].as_object().unwrap();
            for key in slots["keys"].as_array().unwrap() {
                let (page, op) = edit_page(state, coll, kf, key);
                let mut set: Vec<(String, String)> = Vec::new();
                for (k, v) in changes.iter().filter(|(k, _)| !k.ends_with('+')) {
                    set.extend(field(k, v));
                }
                if let Some(c) = changes.get("collections+").map(text) {
                    set.push(("collection".into(), c));
                }
                if !set.is_empty() {
                    let fields: Vec<(&str, String)> =
                        set.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                    ok(submit(APP, &ctx(), state, &page, op, &fields));
                }
                if let Some(t) = changes.get("tags+") {
                    ok(submit(
                        APP,
                        &ctx(),
                        state,
                        &page,
                        "add_tag",
                        &[("tag", text(t))],
                    ));
                }
                let rec = by(state, coll, kf, key);
                for (f, want) in changes {
                    let path = format!("{coll}.{}", f.trim_end_matches('+'));
                    assert!(
                        OPS.iter().any(|(_, paths)| paths.contains(&path.as_str())),
                        "{id}: no operation writes {path}"
                    );
                    assert!(
                        holds(rec, f, want),
                        "{id}: {key}.{f} is {}",
                        rec[f.trim_end_matches('+')]
                    );
                    checked += 1;
                }
            }
        }
        "create_record" => {
            let coll = slots["collection"].as_str().unwrap();
            let rec = slots["record"].as_object().unwrap();
            let before = state[coll].as_array().unwrap().len();
            let op = format!("create_{}", coll.trim_end_matches('s'));
            let mut set: Vec<(String, String)> = Vec::new();
            for (k, v) in rec {
                match (k.as_str(), v) {
                    ("id" | "createdAt" | "updatedAt" | "usageCount", _) => {}
                    ("tags", Value::Array(items)) => set.push((
                        "tags".into(),
                        items.iter().map(text).collect::<Vec<_>>().join(", "),
                    )),
                    ("collections", Value::Array(items)) => {
                        set.extend(items.iter().map(|c| ("collection".to_string(), text(c))))
                    }
                    _ => set.extend(field(k, v)),
                }
            }
            let fields: Vec<(&str, String)> =
                set.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            ok(submit(
                APP,
                &ctx(),
                state,
                &format!("/{coll}/new"),
                &op,
                &fields,
            ));
            let all = state[coll].as_array().unwrap();
            assert_eq!(all.len(), before + 1, "{id}");
            let made = all.last().unwrap();
            for (f, want) in slots["expect"]
                .as_object()
                .unwrap()
                .iter()
                .chain(slots["identify"].as_object().unwrap())
            {
                assert!(
                    holds(made, f, want),
                    "{id}: new {f} is {}",
                    made[f.trim_end_matches('+')]
                );
                checked += 1;
            }
        }
        "vendor_consolidation" => {
            let to = slots["to_vendor"].as_str().unwrap();
            let line = slots["append_line"].as_str().unwrap();
            let from: Vec<&str> = slots["from_vendors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            let targets: Vec<Value> = state["products"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| from.contains(&p["vendor"].as_str().unwrap()))
                .cloned()
                .collect();
            assert!(!targets.is_empty(), "{id}");
            for p in &targets {
                let page = format!("/products/{}", text(&p["id"]));
                let desc = format!("{} {line}", text(&p["description"]).trim_end());
                ok(submit(
                    APP,
                    &ctx(),
                    state,
                    &page,
                    "update_product",
                    &[("vendor", to.into()), ("description", desc.clone())],
                ));
                let now = by(state, "products", "id", &p["id"]);
                assert_eq!(now["vendor"], to, "{id}");
                assert_eq!(now["description"], desc.as_str(), "{id}");
                let mut rest = now.clone();
                let mut was = p.clone();
                for k in ["vendor", "description", "updatedAt"] {
                    rest[k] = Value::Null;
                    was[k] = Value::Null;
                }
                assert_eq!(rest, was, "{id}: only vendor and description changed");
                checked += 2;
            }
        }
        other => panic!("{id}: template {other} is not covered by the ecommerce-admin UI"),
    }
    checked
}

/// Every shipped ecommerce-admin task can be done with the forms of its pages, submitted as a
/// browser would, and reaches exactly its ground truth; doing it again changes nothing.
#[tokio::test]
async fn every_shipped_ecommerce_task_is_doable_with_the_forms_of_its_pages() {
    let f = fixture(APP).await;
    let seed = f.current();
    let mut checked = 0;
    for task in tasks() {
        let mut state = initial(&seed, &task);
        checked += do_task(&mut state, &task);
        if task["template"] != "create_record" && task["template"] != "vendor_consolidation" {
            let once = state.clone();
            do_task(&mut state, &task);
            assert_eq!(
                state, once,
                "{}: repeating changes nothing",
                task["task_id"]
            );
        }
    }
    assert!(checked >= 45, "checked {checked}");
}

#[tokio::test]
async fn the_ecommerce_crawl_finds_no_dead_link_and_no_form_without_an_operation() {
    let (pages, forms) = crawl(APP).await;
    // 28 products, 80 orders, 40 customers, 8 vendors, 3 collections, 3 discounts and the lists.
    assert!(pages >= 180, "crawled {pages} pages");
    assert!(forms >= 300, "{forms} forms");
}

#[tokio::test]
async fn a_product_save_is_a_durable_semantic_write_and_bad_input_names_what_is_wrong() {
    let f = fixture(APP).await;
    let before = f.store.snapshot("trial-1").unwrap().state_id;
    for path in [
        "/",
        "/products/prod013",
        "/orders/1012",
        "/customers/cust001",
        "/discounts/disc1",
        "/settings",
        "/products/vendor/v1",
    ] {
        let (status, html) = f.get(path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(f.get(path).await.1, html, "{path} renders the same twice");
    }
    assert_eq!(
        f.store.snapshot("trial-1").unwrap().state_id,
        before,
        "opening pages writes nothing"
    );
    let (_, html) = f.get("/products/prod013").await;
    assert!(
        html.contains("value=\"150\"") && html.contains("Compare-at price"),
        "compare-at shown"
    );

    let mut state = f.current();
    let msg = submit(
        APP,
        &ctx(),
        &mut state,
        "/products/prod013",
        "update_product",
        &[("price", "99".into()), ("compareAtPrice", "".into())],
    )
    .unwrap();
    assert!(
        msg.contains("price") && msg.contains("compareAtPrice"),
        "{msg}"
    );
    let p = by(&state, "products", "id", &json!("prod013"));
    assert_eq!(p["price"], json!(99.0));
    assert_eq!(p["compareAtPrice"], Value::Null);
    assert_eq!(p["updatedAt"], "2026-03-05T10:00:00Z");

    // Through HTTP: the banner, the durable write, and refusals that write nothing.
    let (status, location, page) = f
        .post(
            "add_tag",
            &[
                ("back", "/orders/1008"),
                ("collection", "orders"),
                ("record", "ord0008"),
                ("tag", "review"),
            ],
        )
        .await;
    assert_eq!((status, location.as_str()), (303, "/orders/1008"));
    assert!(page.contains("Added tag review"), "{page}");
    assert_eq!(
        by(&f.current(), "orders", "number", &json!(1008))["tags"],
        json!(["review"])
    );
    let id = f.store.snapshot("trial-1").unwrap().state_id;
    for (op, form, why) in [
        (
            "update_discount",
            vec![
                ("id", "disc1"),
                ("code", "SPRING10"),
                ("type", "percentage"),
                ("value", "150"),
                ("endsAt", ""),
            ],
            "between 1 and 100",
        ),
        (
            "update_discount",
            vec![
                ("id", "disc1"),
                ("code", "WELCOME5"),
                ("type", "fixed"),
                ("value", "5"),
                ("endsAt", ""),
            ],
            "already used",
        ),
        (
            "update_discount",
            vec![
                ("id", "disc1"),
                ("code", "X"),
                ("type", "fixed"),
                ("value", "5"),
                ("endsAt", "31/08/2026"),
            ],
            "The end date must be a date",
        ),
        (
            "update_customer",
            vec![
                ("customer", "cust001"),
                ("firstName", "Hiro"),
                ("lastName", "F"),
                ("email", "hiro"),
                ("phone", ""),
                ("city", "X"),
                ("country", "CA"),
            ],
            "not an email address",
        ),
        (
            "update_order",
            vec![
                ("order", "ord0001"),
                ("financialStatus", "lost"),
                ("fulfillmentStatus", "fulfilled"),
                ("note", ""),
            ],
            "The payment status must be one of",
        ),
        (
            "bulk_status",
            vec![("status", "active")],
            "Select at least one product",
        ),
        (
            "add_tag",
            vec![("collection", "vendors"), ("record", "v1"), ("tag", "x")],
            "have no tags",
        ),
    ] {
        let (_, _, page) = f.post(op, &form).await;
        assert!(page.contains(why), "{op}: {page}");
    }
    assert_eq!(
        f.store.snapshot("trial-1").unwrap().state_id,
        id,
        "refused operations write nothing"
    );
}

#[tokio::test]
async fn bulk_status_vendor_rename_and_new_records_go_through_named_operations() {
    let f = fixture(APP).await;
    f.post(
        "bulk_status",
        &[
            ("product", "prod001"),
            ("product", "prod008"),
            ("status", "active"),
        ],
    )
    .await;
    let s = f.current();
    for p in ["prod001", "prod008"] {
        assert_eq!(by(&s, "products", "id", &json!(p))["status"], "active");
    }
    let (_, _, page) = f
        .post(
            "update_vendor",
            &[
                ("id", "v3"),
                ("name", "Leather & Co"),
                ("contactEmail", "sales@leatherco.example"),
                ("country", "us"),
            ],
        )
        .await;
    assert!(page.contains("renamed on 3 products"), "{page}");
    let s = f.current();
    assert_eq!(
        s["products"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["vendor"] == "Leather & Co")
            .count(),
        3
    );
    assert_eq!(by(&s, "vendors", "id", &json!("v3"))["country"], "US");
    let (_, location, _) = f
        .post(
            "create_vendor",
            &[
                ("name", "Acme"),
                ("contactEmail", "a@acme.example"),
                ("country", "DE"),
            ],
        )
        .await;
    assert_eq!(location, "/vendors/v9");
    let (_, location, page) = f
        .post(
            "create_collection",
            &[
                ("title", "Home Office"),
                ("handle", ""),
                ("description", "Desks."),
            ],
        )
        .await;
    assert_eq!(location, "/collections/col4");
    assert!(page.contains("Created collection Home Office"));
    assert_eq!(
        by(&f.current(), "collections", "id", &json!("col4"))["handle"],
        "home-office"
    );
    let (_, _, page) = f
        .post(
            "create_collection",
            &[
                ("title", "Home office!"),
                ("handle", ""),
                ("description", ""),
            ],
        )
        .await;
    assert!(page.contains("already used"), "{page}");
    f.post(
        "update_store",
        &[
            ("name", "Northwind"),
            ("email", "shop@northwind.example"),
            ("currency", "eur"),
            ("timezone", "Europe/Berlin"),
        ],
    )
    .await;
    assert_eq!(f.current()["store"]["currency"], "EUR");
    assert!(f.get("/products").await.1.contains("€19.00"));
}
