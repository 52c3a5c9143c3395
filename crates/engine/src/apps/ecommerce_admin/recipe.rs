//! Task-generation recipes of this pack (one per taxonomy leaf `recipe`): ecommerce-admin.

use serde_json::{json, Value};

use crate::taskgen::recipes::{and_list, choose, Ctx, Draft, Recipe};
use crate::taskgen::recipes::difficulty_for;
use crate::taskgen::phrasing::pick;
use crate::taskgen::seeds::{list, s};

const NEW_VENDORS: [&str; 6] = [
    "UnifiedBrands",
    "Northwind Select",
    "Harbor & Co",
    "Evergreen Supply",
    "Atlas Makers",
    "Bright Lane",
];
const SEASONS: [&str; 6] = ["SUMMER", "AUTUMN", "WINTER", "FLASH", "LOYAL", "STUDENT"];
const TAGS: [&str; 6] = [
    "vip",
    "wholesale",
    "newsletter",
    "local-pickup",
    "beta-tester",
    "returning",
];

fn products<'v>(ctx: &Ctx<'v>) -> Vec<&'v Value> {
    list(ctx.seeds.of("ecommerce-admin"), "products")
}

fn titles(items: &[&Value]) -> Vec<String> {
    items.iter().map(|p| s(p, "title").to_string()).collect()
}

fn ids(items: &[&Value]) -> Vec<String> {
    items.iter().map(|p| s(p, "id").to_string()).collect()
}

fn slots(keys: &[String], changes: Value, preset: Option<Value>) -> Value {
    let mut v = json!({"app": "ecommerce-admin", "collection": "products", "key_field": "id", "keys": keys, "changes": changes});
    if let Some(p) = preset {
        v["preset"] = p;
    }
    v
}

pub fn price(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let all = products(ctx);
    let k = if ctx.difficulty == "hard" {
        ctx.count()
    } else {
        1
    };
    let chosen = choose(ctx.rng, &all, k);
    let price = (10 + ctx.serial % 190) as f64 - 0.01;
    let names = and_list(&titles(&chosen));
    let mut changes = json!({"price": price});
    let (preset, extra) = if ctx.difficulty == "easy" {
        (None, String::new())
    } else {
        let cmp = price + 20.0;
        changes["compareAtPrice"] = json!(cmp);
        (
            Some(json!({"compareAtPrice": null})),
            format!(" and show {cmp:.2} as the compare-at price"),
        )
    };
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Put {names} on sale at {price:.2}{extra}."),
        _ => format!("Change the price of {names} to {price:.2}{extra}."),
    };
    let keys = ids(&chosen);
    let context = format!("Products {}. Ground truth: {changes} on each; no other product changes. Checkpoints: one per field (0.8 split), others untouched (0.2).", keys.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        slots(&keys, changes, preset),
        vec!["ecommerce-admin"],
    ))
}

pub fn inventory(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let qty = 5 + ctx.serial % 500;
    let pool: Vec<&Value> = products(ctx)
        .into_iter()
        .filter(|p| p["inventory"] != json!(qty))
        .collect();
    let k = ctx.count();
    let chosen = choose(ctx.rng, &pool, k);
    let v = ctx.idx(2);
    let names = and_list(&titles(&chosen));
    let core = match v {
        0 => format!("After the stock count, set the inventory of {names} to {qty} units."),
        _ => format!("We now hold exactly {qty} units of {names}; update the stock levels."),
    };
    let keys = ids(&chosen);
    let context = format!("Products {}. Ground truth: inventory = {qty} on each. Checkpoints: inventory (0.8), others untouched (0.2).", keys.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        slots(&keys, json!({"inventory": qty}), None),
        vec!["ecommerce-admin"],
    ))
}

pub fn status(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let target = *pick(ctx.rng, &["active", "draft", "archived"]);
    let pool: Vec<&Value> = products(ctx)
        .into_iter()
        .filter(|p| s(p, "status") != target)
        .collect();
    let k = ctx.count();
    let chosen = choose(ctx.rng, &pool, k);
    let names = and_list(&titles(&chosen));
    let v = ctx.idx(2);
    let core = match (v, target) {
        (0, "active") => format!("Publish {names} in the store."),
        (0, "draft") => format!("Take {names} off the storefront by making them drafts."),
        (0, _) => format!("Archive {names}; we stopped selling them."),
        _ => format!("Set the status of {names} to {target}."),
    };
    let keys = ids(&chosen);
    let context = format!("Products {} are not {target}. Ground truth: status = {target}. Checkpoints: status (0.8), others untouched (0.2).", keys.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        slots(&keys, json!({"status": target}), None),
        vec!["ecommerce-admin"],
    ))
}

pub fn vendor(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let mut vendors: Vec<String> = Vec::new();
    for p in products(ctx) {
        let v = s(p, "vendor").to_string();
        if !vendors.contains(&v) {
            vendors.push(v);
        }
    }
    let k = match ctx.difficulty {
        "easy" => 1,
        "medium" => 2,
        _ => 3,
    };
    let refs: Vec<&String> = vendors.iter().collect();
    let from: Vec<String> = choose(ctx.rng, &refs, k).into_iter().cloned().collect();
    let to = *pick(ctx.rng, &NEW_VENDORS);
    let line = format!(
        "Now part of the {to} family since {}.",
        2026 + ctx.serial % 3
    );
    let affected = products(ctx)
        .iter()
        .filter(|p| from.iter().any(|f| f == s(p, "vendor")))
        .count();
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Consolidate our vendors: every product from {} should list {to} as its vendor, with the line '{line}' added to the end of each affected description.", and_list(&from)),
        _ => format!("Re-vendor all {} products to {to} and append '{line}' to their descriptions; leave other products alone.", and_list(&from)),
    };
    let context = format!("{affected} product(s) come from {}; the setup adds vendor {to}. Ground truth: their vendor is {to} and descriptions keep the text and end with the line. Checkpoints: vendor (0.45), description (0.45), others untouched (0.1).", from.join(", "));
    let mut d = ctx.draft(
        v,
        core,
        context,
        "vendor_consolidation",
        json!({"from_vendors": from, "to_vendor": to, "append_line": line}),
        vec!["ecommerce-admin"],
    );
    d.difficulty = difficulty_for(affected.min(6)).replace("easy", "medium");
    d.feasible = affected > 0;
    Some(d)
}

pub fn discount(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let value = 5 + (ctx.serial % 8) * 5;
    let code = format!("{}{value}{}", pick(ctx.rng, &SEASONS), ctx.serial % 100);
    let month = 1 + ctx.serial % 12;
    let ends = format!("2026-{month:02}-28");
    let mut expect = json!({"type": "percentage", "value": value, "active": true});
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        expect["endsAt"] = json!(ends);
        extra = format!(" that ends on {ends}");
    }
    let record = json!({"id": format!("disc9{:04}", ctx.serial % 10_000), "code": code, "type": "percentage", "value": value, "active": true, "usageCount": 0, "endsAt": ends});
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Create an active {value}% discount code {code}{extra}."),
        _ => format!("Set up the discount {code}: {value}% off, active now{extra}."),
    };
    let context = format!("No discount {code} exists. Ground truth: a new discount {code} with {expect}. Checkpoints: created (0.4), fields (0.6 split).");
    let slots = json!({"app": "ecommerce-admin", "collection": "discounts", "record": record, "identify": {"code": code}, "expect": expect});
    Some(ctx.draft(
        v,
        core,
        context,
        "create_record",
        slots,
        vec!["ecommerce-admin"],
    ))
}

pub fn customer_tag(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let customers = list(ctx.seeds.of("ecommerce-admin"), "customers");
    let mut cities: Vec<(String, Vec<String>)> = Vec::new();
    for c in &customers {
        let city = s(c, "city").to_string();
        match cities.iter_mut().find(|(n, _)| *n == city) {
            Some((_, v)) => v.push(s(c, "id").to_string()),
            None => cities.push((city, vec![s(c, "id").to_string()])),
        }
    }
    let (city, keys) = cities.get(ctx.idx(cities.len()))?.clone();
    let tag = *pick(ctx.rng, &TAGS);
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Tag every customer based in {city} with '{tag}'."),
        _ => format!("Add the '{tag}' tag to all of our customers from {city}."),
    };
    let context = format!("Customers in {city}: {} (the setup clears their tags). Ground truth: tags include '{tag}'. Checkpoints: tag (0.8), others untouched (0.2).", keys.join(", "));
    let k = keys.len();
    let slots = json!({"app": "ecommerce-admin", "collection": "customers", "key_field": "id", "keys": keys, "changes": {"tags+": [tag]}, "preset": {"tags": []}});
    let mut d = ctx.draft(
        v,
        core,
        context,
        "update_records",
        slots,
        vec!["ecommerce-admin"],
    );
    d.difficulty = difficulty_for(k);
    Some(d)
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("shop_price", price),
    ("shop_inventory", inventory),
    ("shop_status", status),
    ("shop_vendor", vendor),
    ("shop_discount", discount),
    ("shop_customer_tag", customer_tag),
];
