//! The ecommerce-admin [`UiPlanner`]: a plan per shipped template (update_records and
//! create_record on products, orders, customers, collections, vendors and discounts, and
//! vendor_consolidation), built from the task's structured slots only. A record is reached as a
//! person would: its section in the sidebar, its row in the list (by the slot's key field), the
//! row's link. Text fields are filled, choices are radio buttons named by value, boxes are
//! ticked only when not already so, tags are added only when missing; status-only product
//! changes use the list's bulk bar. Vendor consolidation filters the products list by each old
//! vendor and edits its first product (vendor, and the line typed at the end of the
//! description) until the filter shows none. Every form post is a [`PlanStep::Submit`]
//! followed by a wait for that operation's success banner, so an error banner is a miss.

use serde_json::{Map, Value};

use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{
    click, css, done, fill, form_value, form_values, open_sidebar, role, submit, text, unless, wait,
};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

/// The ecommerce-admin planner.
pub struct EcommerceAdminPlanner;

/// How many products of one vendor a consolidation plan moves at most.
pub const MAX_PER_VENDOR: usize = 60;

/// What kind of control sets a field.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Text,
    Radio,
    Check,
    Tags,
    Collections,
}

/// The list page, edit operation and save button of a collection.
fn section(coll: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match coll {
        "products" => ("/products", "update_product", "Save product"),
        "orders" => ("/orders", "update_order", "Save order"),
        "customers" => ("/customers", "update_customer", "Save customer"),
        "collections" => ("/collections", "update_collection", "Save collection"),
        "vendors" => ("/vendors", "update_vendor", "Save vendor"),
        "discounts" => ("/discounts", "update_discount", "Save discount"),
        _ => return None,
    })
}

/// The control of `field` of a record in `coll`.
fn kind(coll: &str, field: &str) -> Option<Kind> {
    use Kind::*;
    Some(match (coll, field) {
        (
            "products",
            "title" | "description" | "productType" | "price" | "compareAtPrice" | "sku"
            | "inventory" | "handle",
        ) => Text,
        ("products", "status" | "vendor") => Radio,
        ("products", "collections+") => Collections,
        ("products" | "orders" | "customers", "tags+") => Tags,
        ("orders", "note") => Text,
        ("orders", "financialStatus" | "fulfillmentStatus") => Radio,
        ("customers", "firstName" | "lastName" | "email" | "phone" | "city" | "country") => Text,
        ("customers", "acceptsMarketing") => Check,
        ("collections", "title" | "handle" | "description") => Text,
        ("vendors", "name" | "contactEmail" | "country") => Text,
        ("discounts", "code" | "value" | "endsAt") => Text,
        ("discounts", "type") => Radio,
        ("discounts", "active") => Check,
        _ => return None,
    })
}

/// Replaces the text of a field (an empty value clears it).
fn set_text(target: crate::rollout::ui_plan::Target, value: &str) -> Vec<PlanStep> {
    if value.is_empty() {
        vec![
            click(target),
            PlanStep::Key {
                key: "ctrl+a".into(),
            },
            PlanStep::Key {
                key: "BackSpace".into(),
            },
        ]
    } else {
        vec![fill(target, value)]
    }
}

/// Ticks or unticks the box `name` of form `op`, unless it already is so.
fn tick(op: &str, name: &str, value: Option<&str>, on: bool) -> PlanStep {
    let which = match value {
        Some(v) => format!("form[action=\"/op/{op}\"] input[name=\"{name}\"][value=\"{v}\"]"),
        None => format!("form[action=\"/op/{op}\"] input[name=\"{name}\"]"),
    };
    let state = if on { ":checked" } else { ":not(:checked)" };
    unless(css(format!("{which}{state}")), vec![click(css(which))])
}

/// The steps that set `field` to `v` on the form of `op` (tags excluded).
fn field_steps(op: &str, kind: Kind, field: &str, v: &Value) -> Result<Vec<PlanStep>, String> {
    let name = field.trim_end_matches('+');
    let control = format!("form[action=\"/op/{op}\"] [name=\"{name}\"]");
    Ok(match (kind, v) {
        (Kind::Text, Value::Array(_)) => set_text(css(control), &form_values(v).join(", ")),
        (Kind::Text, _) => set_text(css(control), &form_value(v)),
        (Kind::Radio, _) => vec![click(css(format!(
            "form[action=\"/op/{op}\"] input[name=\"{name}\"][value=\"{}\"]",
            form_value(v)
        )))],
        (Kind::Check, Value::Bool(on)) => vec![tick(op, name, None, *on)],
        (Kind::Collections, _) => form_values(v)
            .iter()
            .map(|c| tick(op, "collection", Some(c), true))
            .collect(),
        (k, v) => return Err(format!("no plan sets `{field}` ({k:?}) to {v}")),
    })
}

/// Adds each tag of `v` through the record page's tag panel, unless the record has it.
fn tag_steps(v: &Value) -> Vec<PlanStep> {
    form_values(v)
        .into_iter()
        .map(|t| {
            unless(
                css(format!("ul.tag-list li.tag[data-tag=\"{t}\"]")),
                vec![
                    fill(role("textbox", "Add tag"), &t),
                    submit(role("button", "Add tag")),
                    done("add_tag"),
                ],
            )
        })
        .collect()
}

/// Products whose only change is their status: ticked in the list, set by the bulk bar.
fn bulk_status(keys: &[String], status: &str) -> Vec<PlanStep> {
    let mut p = Vec::from(open_sidebar("/products"));
    for k in keys {
        p.push(click(css(format!(
            "table.products tr[data-id=\"{k}\"] td.tick input"
        ))));
    }
    p.extend([
        submit(css(format!(
            "form#bulk button[name=\"status\"][value=\"{status}\"]"
        ))),
        done("bulk_status"),
    ]);
    p
}

fn update_plan(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let coll = text(slots, "collection")?;
    let (list, op, save) =
        section(coll).ok_or_else(|| format!("update_records on {coll:?} has no plan"))?;
    let kf = text(slots, "key_field")?;
    let keys = form_values(&slots["keys"]);
    let changes: &Map<String, Value> = slots["changes"]
        .as_object()
        .ok_or("slot `changes` is not an object")?;
    if coll == "products" && changes.len() == 1 {
        if let Some(Value::String(st)) = changes.get("status") {
            return Ok(bulk_status(&keys, st));
        }
    }
    let mut p = Vec::new();
    for k in &keys {
        p.extend(open_sidebar(list));
        p.extend([
            submit(css(format!("table.list tr[data-{kf}=\"{k}\"] a.open"))),
            wait(format!("main[data-{kf}=\"{k}\"]")),
        ]);
        let (mut form, mut tags) = (Vec::new(), Vec::new());
        for (field, v) in changes {
            let kind = kind(coll, field)
                .ok_or_else(|| format!("no plan changes {coll} field `{field}`"))?;
            if kind == Kind::Tags {
                tags.extend(tag_steps(v));
            } else {
                form.extend(field_steps(op, kind, field, v)?);
            }
        }
        if !form.is_empty() {
            p.extend(form);
            p.extend([submit(role("button", save)), done(op)]);
        }
        p.extend(tags);
    }
    Ok(p)
}

fn create_plan(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let coll = text(slots, "collection")?;
    let (list, link, op, button) = match coll {
        "products" => (
            "/products",
            "Add product",
            "create_product",
            "Create product",
        ),
        "collections" => (
            "/collections",
            "Create collection",
            "create_collection",
            "Create collection",
        ),
        "discounts" => (
            "/discounts",
            "Create discount",
            "create_discount",
            "Create discount",
        ),
        "vendors" => ("/vendors", "Add vendor", "create_vendor", "Add vendor"),
        other => return Err(format!("create_record on {other:?} has no plan")),
    };
    let rec = slots["record"]
        .as_object()
        .ok_or("slot `record` is not an object")?;
    let mut p = Vec::from(open_sidebar(list));
    p.extend([
        submit(role("link", link)),
        wait(format!("body[data-path=\"{list}/new\"]")),
    ]);
    for (field, v) in rec {
        match (field.as_str(), v) {
            ("id" | "createdAt" | "updatedAt", _) | (_, Value::Null) => {}
            ("usageCount", v) if v.as_f64() == Some(0.0) => {}
            ("tags", Value::Array(_)) if coll == "products" => {
                p.extend(field_steps(op, Kind::Text, "tags", v)?);
            }
            ("collections", Value::Array(_)) if coll == "products" => {
                p.extend(field_steps(op, Kind::Collections, "collections+", v)?);
            }
            (f, v) => {
                let kind = kind(coll, f)
                    .filter(|k| *k != Kind::Tags && *k != Kind::Collections)
                    .ok_or_else(|| format!("no plan sets new {coll} field `{f}`"))?;
                p.extend(field_steps(op, kind, f, v)?);
            }
        }
    }
    p.extend([submit(role("button", button)), done(op)]);
    Ok(p)
}

/// From anywhere to the products list filtered to vendor `name`.
fn filter_vendor(name: &str) -> Vec<PlanStep> {
    let mut p = Vec::from(open_sidebar("/products"));
    p.extend([
        submit(css(format!("nav.filters a[data-vendor=\"{name}\"]"))),
        wait(format!("main[data-vendor=\"{name}\"]")),
    ]);
    p
}

/// Moves the first product the filter on `from` shows to `to` with `line` appended, then the
/// next, `left` more times at most; the innermost step fails when products of `from` remain.
fn consolidate(from: &str, to: &str, line: &str, left: usize) -> PlanStep {
    let empty = css(format!("main[data-vendor=\"{from}\"] p.empty"));
    if left == 0 {
        return wait(format!("main[data-vendor=\"{from}\"] p.empty"));
    }
    let op = "update_product";
    let mut steps = vec![
        submit(css(format!(
            "main[data-vendor=\"{from}\"] table.products tbody tr:first-child a.open"
        ))),
        wait(format!("form[action=\"/op/{op}\"]")),
        click(css(format!(
            "form[action=\"/op/{op}\"] input[name=\"vendor\"][value=\"{to}\"]"
        ))),
        click(css(
            "form[action=\"/op/update_product\"] textarea[name=\"description\"]",
        )),
        PlanStep::Key {
            key: "ctrl+End".into(),
        },
        PlanStep::Type {
            text: format!(" {}", line.trim()),
        },
        submit(role("button", "Save product")),
        done(op),
    ];
    steps.extend(filter_vendor(from));
    steps.push(consolidate(from, to, line, left - 1));
    unless(empty, steps)
}

fn consolidation_plan(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let to = text(slots, "to_vendor")?;
    let line = text(slots, "append_line")?;
    let from = form_values(&slots["from_vendors"]);
    if from.is_empty() {
        return Err("slot `from_vendors` names no vendor".into());
    }
    let mut p = Vec::new();
    for f in &from {
        p.extend(filter_vendor(f));
        p.push(consolidate(f, to, line, MAX_PER_VENDOR));
    }
    Ok(p)
}

impl UiPlanner for EcommerceAdminPlanner {
    fn apps(&self) -> &[&'static str] {
        &["ecommerce-admin"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let slots = &brief.structured["slots"];
        match brief.structured["template"].as_str().unwrap_or_default() {
            "update_records" => update_plan(slots),
            "create_record" => create_plan(slots),
            "vendor_consolidation" => consolidation_plan(slots),
            other => Err(format!("template {other:?} has no ecommerce-admin plan")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(task: &Value) -> TaskBrief {
        crate::rollout::plan_steps::shipped_brief("ecommerce-admin", task)
    }

    fn last_wait(plan: &[PlanStep]) -> bool {
        match plan.last() {
            Some(PlanStep::UnlessPresent { steps, .. }) => last_wait(steps),
            Some(PlanStep::WaitFor { .. }) => true,
            _ => false,
        }
    }

    #[test]
    fn every_shipped_ecommerce_task_has_a_plan_ending_in_a_wait() {
        let tasks: Value = serde_json::from_str(include_str!(
            "../tasks.json"
        ))
        .unwrap();
        let tasks = tasks["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), 21);
        for task in tasks {
            let plan = EcommerceAdminPlanner
                .plan(&brief(task))
                .unwrap_or_else(|e| panic!("{}: {e}", task["task_id"]));
            assert!(last_wait(&plan), "{}", task["task_id"]);
            assert!(plan.len() >= 3, "{}", task["task_id"]);
        }
        let bad = serde_json::json!({"template": "update_records", "slots": {"collection": "orders", "key_field": "number", "keys": [1001], "changes": {"total": 3}}});
        assert!(EcommerceAdminPlanner
            .plan(&brief(&bad))
            .unwrap_err()
            .contains("`total`"));
        let none = serde_json::json!({"template": "post_message", "slots": {}});
        assert!(EcommerceAdminPlanner
            .plan(&brief(&none))
            .unwrap_err()
            .contains("no ecommerce-admin plan"));
    }

    #[test]
    fn a_consolidation_plan_stops_when_the_vendor_filter_is_empty() {
        let slots =
            serde_json::json!({"from_vendors": ["A"], "to_vendor": "B", "append_line": "x"});
        let plan = consolidation_plan(&slots).unwrap();
        let mut depth = 0;
        let mut at = plan.last().cloned();
        while let Some(PlanStep::UnlessPresent { target, steps }) = at {
            assert_eq!(target, css("main[data-vendor=\"A\"] p.empty"));
            depth += 1;
            at = steps.last().cloned();
        }
        assert_eq!(depth, MAX_PER_VENDOR);
        assert!(matches!(at, Some(PlanStep::WaitFor { .. })));
    }
}
