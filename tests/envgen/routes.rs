//! The generic renderer's routes and row links on the hr pack (issue #32: `envgen check hr`
//! found 15 discrepancies). Pure functions of the spec and the seed: no browser.

use std::path::Path;

use serde_json::Value;
use tuplewright::engine::envgen;
use tuplewright::engine::ui::{Ctx, Today};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn hr() -> &'static tuplewright::apps::Pack {
    tuplewright::apps::get("hr").expect("hr is registered")
}

/// A literal route beats a `{field}` one whatever the views' order (issue #32: hr's sidebar
/// link "Request time off" led to `/time-off/new`, which `/time-off/{id}`, declared first,
/// captured as the request "new": "Nothing here", and every later element was unreachable).
#[test]
fn a_literal_route_wins_over_a_record_route_declared_before_it() {
    let spec =
        envgen::load(&root().join("crates/engine/src/apps/hr/app.spec.toml")).expect("hr parses");
    let order: Vec<&str> = spec
        .views
        .iter()
        .map(|v| v.get_ref().name.as_str())
        .collect();
    let at = |n: &str| order.iter().position(|v| *v == n).expect("view");
    assert!(
        at("request") < at("new_request"),
        "the record route comes first in hr's spec: {order:?}"
    );
    let model = envgen::Model::new(spec);
    let (view, key) = model
        .route("/time-off/new")
        .expect("a view serves /time-off/new");
    assert_eq!((view.name.as_str(), key), ("new_request", None));
    let (view, key) = model
        .route("/time-off/to1")
        .expect("a view serves /time-off/to1");
    assert_eq!(
        (view.name.as_str(), key.as_deref()),
        ("request", Some("to1"))
    );
}

/// Every row of a table that opens records links to its record page, also when the table does
/// not show the title field (hr's time-off table lists no `note`: before, no row had a link, so
/// neither a person nor the crawl could open a request); a blank title still reads as a link.
#[test]
fn every_row_of_a_table_that_opens_records_has_its_link() {
    let ui = hr().app.ui().expect("a UI");
    let mut state: Value = serde_json::from_str(hr().app.seed_text().expect("seed")).expect("json");
    state["timeOff"][0]["note"] = Value::String(String::new());
    let ctx = Ctx {
        today: Today::parse("2026-03-05T10:00:00Z").expect("today"),
    };
    let (_, page) = ui
        .page("/time-off", &state, &ctx)
        .expect("the time-off page");
    let html = page.into_string();
    assert!(html.contains("data-view=\"requests\""), "{html}");
    for r in state["timeOff"].as_array().expect("requests") {
        let id = r["id"].as_str().expect("id");
        let link = format!(
            "id=\"requests-open-{id}\" data-el=\"requests-open-{id}\" href=\"/time-off/{id}\""
        );
        assert!(html.contains(&link), "row {id} has its link: {html}");
    }
    assert!(
        html.contains(">Time-off request to1</a>"),
        "a blank title reads as label and id: {html}"
    );
    let (_, form) = ui
        .page("/time-off/new", &state, &ctx)
        .expect("the request form");
    assert!(form.into_string().contains("data-view=\"new_request\""));
}
