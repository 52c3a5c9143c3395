//! The ecommerce-admin UI on a real screen (Xvfb + Debian Chromium, installed by .ci/setup):
//! the planner's plans for shipped tasks, performed one after another on one screen as
//! computer_use actions only, leave the state each task asks for; and through the CLI,
//! `rollout --policy ui-oracle` does a shipped task to 1.0 while `noop --screen` on the same
//! screen scores 0.0.

use crate::shipped_support;

use std::sync::Arc;

use serde_json::{json, Value};
use shipped_support::{brief_of, holds, shipped_task, store_of, tw};
use tuplewright::apps::ecommerce_admin::ui::planner::EcommerceAdminPlanner;
use tuplewright::engine::env::{AppRegistry, ServerConfig, SessionStore};
use tuplewright::engine::rollout::screen::ComputerAction;
use tuplewright::engine::rollout::ui_exec::Executor;
use tuplewright::engine::rollout::ui_plan::UiPlanner;
use tuplewright::engine::screen::ScreenConfig;
use tuplewright::engine::ui::{Today, UiOptions, WebScreen};

const APP: &str = "ecommerce-admin";

fn current(store: &SessionStore, sid: &str) -> Value {
    store.snapshot(sid).unwrap().current.value().unwrap()
}

fn records<'a>(state: &'a Value, coll: &str) -> &'a [Value] {
    state[coll]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// What the shipped setup scripts do before a task: presets on the target records, and the
/// consolidation's new vendor in the vendor list.
fn set_up(store: &SessionStore, sid: &str, task: &Value) {
    let slots = task["slots"].clone();
    store
        .update(sid, |state| {
            if let (Some(preset), Some(coll)) =
                (slots["preset"].as_object(), slots["collection"].as_str())
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
            Ok::<_, String>(())
        })
        .unwrap()
        .unwrap();
}

/// Whether `state` (after the task, from `before`) holds the task's ground truth, read from its
/// slots, or what is missing.
fn meets(task: &Value, before: &Value, state: &Value) -> Result<(), String> {
    let slots = &task["slots"];
    match task["template"].as_str().unwrap() {
        "update_records" => {
            let coll = slots["collection"].as_str().unwrap();
            let kf = slots["key_field"].as_str().unwrap();
            for key in slots["keys"].as_array().unwrap() {
                let r = records(state, coll)
                    .iter()
                    .find(|r| r[kf] == *key)
                    .ok_or(format!("no {key}"))?;
                for (field, want) in slots["changes"].as_object().unwrap() {
                    if !holds(r, field, want) {
                        let now = &r[field.trim_end_matches('+')];
                        return Err(format!("{key}.{field} is {now} not {want}"));
                    }
                }
            }
            let others = |s: &Value| -> Vec<Value> {
                records(s, coll)
                    .iter()
                    .filter(|r| !slots["keys"].as_array().unwrap().contains(&r[kf]))
                    .cloned()
                    .collect()
            };
            (others(before) == others(state))
                .then_some(())
                .ok_or("another record changed".into())
        }
        "create_record" => {
            let coll = slots["collection"].as_str().unwrap();
            let old = records(before, coll).len();
            let made = records(state, coll).get(old).ok_or("nothing created")?;
            let want = slots["expect"].as_object().unwrap();
            for (field, want) in want.iter().chain(slots["identify"].as_object().unwrap()) {
                if !holds(made, field, want) {
                    let now = &made[field.trim_end_matches('+')];
                    return Err(format!("new {field} is {now} not {want}"));
                }
            }
            Ok(())
        }
        "vendor_consolidation" => {
            let from = slots["from_vendors"].as_array().unwrap();
            let line = slots["append_line"].as_str().unwrap();
            for p in records(before, "products") {
                let now = records(state, "products")
                    .iter()
                    .find(|q| q["id"] == p["id"])
                    .ok_or("a product vanished")?;
                if !from.contains(&p["vendor"]) {
                    if now != p {
                        return Err(format!("{} changed", p["id"]));
                    }
                    continue;
                }
                let desc = now["description"].as_str().unwrap_or_default();
                let was = p["description"].as_str().unwrap_or_default().trim_end();
                if now["vendor"] != slots["to_vendor"]
                    || !desc.starts_with(was)
                    || !desc.ends_with(line)
                {
                    return Err(format!("{} is {} / {desc:?}", p["id"], now["vendor"]));
                }
            }
            Ok(())
        }
        other => Err(format!("no check for template {other}")),
    }
}

/// Shipped ecommerce-admin tasks of every kind (a consolidation of three products into another
/// vendor, a price with a compare-at price, two products published with the bulk bar, four
/// products tagged, products added to a collection, an order refunded with a note, an order
/// fulfilled, a customer moved by email key, a marketing opt-out, a discount switched off, a
/// vendor's email, a new discount, product and collection) done one after another on one
/// screen through the UI only: each leaves its ground truth and touches no other record; rows
/// far down the orders list must be scrolled to, and plans run again change nothing.
#[test]
fn ecommerce_planner_plans_for_shipped_tasks_reach_their_ground_truth_through_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().unwrap();
    let store = Arc::new(SessionStore::open(reg.get(APP).unwrap(), &cfg).unwrap());
    let opts = UiOptions {
        today: Today::parse("2026-03-05T10:00:00Z").unwrap(),
    };
    let mut web = WebScreen::start(&ScreenConfig::default(), store.clone(), "e1", opts).unwrap();
    let mut scrolled = 0;
    for id in [
        "shop_vendor-consolidation_002",
        "shop_price_001",
        "shop_publish_001",
        "shop_tag_001",
        "shop_collection_001",
        "shop_refund_001",
        "shop_fulfil_001",
        "shop_customer-move_001",
        "shop_unsubscribe_001",
        "shop_discount-off_001",
        "shop_vendor-contact_001",
        "shop_discount_002",
        "shop_new-product_001",
        "shop_new-collection_001",
    ] {
        let t = shipped_task("ecommerce-admin.json", id);
        set_up(&store, "e1", &t);
        let before = current(&store, "e1");
        let plan = EcommerceAdminPlanner.plan(&brief_of(APP, &t)).unwrap();
        let (screen, resolver) = web.parts();
        let outcome = Executor::new(screen, resolver, false).run(&plan).unwrap();
        assert_eq!(outcome.miss, None, "{id}: {:?}", outcome.steps);
        scrolled += outcome
            .steps
            .iter()
            .filter(|s| matches!(s.action, ComputerAction::Scroll { .. }))
            .count();
        if let Err(e) = meets(&t, &before, &current(&store, "e1")) {
            panic!("{id}: {e}");
        }
        if [
            "shop_tag_001",
            "shop_unsubscribe_001",
            "shop_vendor-consolidation_002",
        ]
        .contains(&id)
        {
            let done = store.snapshot("e1").unwrap().state_id;
            let (screen, resolver) = web.parts();
            let again = Executor::new(screen, resolver, false).run(&plan).unwrap();
            assert_eq!(again.miss, None, "{id} again: {:?}", again.steps);
            assert_eq!(
                store.snapshot("e1").unwrap().state_id,
                done,
                "{id} again changed nothing"
            );
        }
    }
    assert!(scrolled > 0, "some row had to be scrolled into view");
}

#[test]
fn ui_oracle_does_a_shipped_ecommerce_task_through_its_web_ui_and_noop_on_that_screen_scores_0() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_of(
        dir.path(),
        "ecommerce-admin.json",
        "shop_vendor-consolidation_001",
    );
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    let trial = &rows[0]["trials"][0];
    assert_eq!(trial["reward"], 1.0, "{rows}");
    let steps = trial["steps"].as_array().unwrap();
    assert!(steps.len() >= 20, "{rows}");
    assert_eq!(
        steps[0]["action"]["action"], "screenshot",
        "the first observation (#36)"
    );
    assert!(steps[1..].iter().all(|s| {
        let kind = s["action"]["action"].as_str().unwrap_or_default();
        ["left_click", "type", "key", "scroll"].contains(&kind)
    }));
    let (code, out, err) = tw(
        &store,
        &["rollout", "--policy", "noop", "--screen", "--json"],
    );
    assert_eq!(
        code, 0,
        "noop through the shop admin's screen scores 0.0: {out}\n{err}"
    );
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["trials"][0]["reward"], 0.0, "{rows}");
}
