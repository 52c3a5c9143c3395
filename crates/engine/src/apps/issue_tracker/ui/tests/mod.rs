//! Tests of the issue-tracker UI over real HTTP (a loopback origin bound to one session of a real
//! session store): rendering, semantic operations and their errors, the crawl, determinism.
//! `coverage` submits the pages' forms as a browser would for every shipped task.

mod coverage;

use serde_json::{json, Value};

use super::model::issue;
use crate::ui::test_forms::{holds, text};
use crate::ui::tests::{crawl, fixture};
use crate::ui::{app_ui, Ctx, FormData, Today};

const TODAY: &str = "2026-03-05T10:00:00Z";

fn ctx() -> Ctx {
    Ctx {
        today: Today::parse(TODAY).unwrap(),
    }
}

fn by<'a>(state: &'a Value, coll: &str, field: &str, key: &str) -> &'a Value {
    state[coll]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[field] == key)
        .unwrap()
}

#[tokio::test]
async fn the_issue_tracker_crawl_finds_no_dead_link_and_no_form_without_an_operation() {
    let (pages, forms) = crawl("issue-tracker").await;
    // 3 projects × 9 views, 90 issues, 9 sprints, /sprints.
    assert!(pages >= 120, "crawled {pages} pages");
    assert!(forms >= 400, "{forms} forms");
}

/// The fields of WEB-102's details form, assigned to the signed-in user.
fn details_form<'a>(
    status: &'a str,
    priority: &'a str,
    kind: &'a str,
    sprint: &'a str,
    points: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("back", "/issue/WEB-102"),
        ("issue", "WEB-102"),
        ("status", status),
        ("priority", priority),
        ("type", kind),
        ("assignee", "u1"),
        ("sprintId", sprint),
        ("storyPoints", points),
    ]
}

#[tokio::test]
async fn issue_details_post_is_a_durable_semantic_write_and_bad_input_names_what_is_wrong() {
    let f = fixture("issue-tracker").await;
    let (status, home) = f.get("/").await;
    assert_eq!(status, 200);
    assert!(home.contains("Web Storefront board") && home.contains("WEB Sprint 23"));
    let before = f.store.snapshot("trial-1").unwrap().state_id;
    let seed_rec = issue(&f.current(), "WEB-102").unwrap().clone();
    let (pts, sprint) = (text(&seed_rec["storyPoints"]), text(&seed_rec["sprintId"]));
    let (pri, kind) = (
        seed_rec["priority"].as_str().unwrap(),
        seed_rec["type"].as_str().unwrap(),
    );
    let good = details_form("In Progress", pri, kind, &sprint, &pts);
    let form = |status, sprint, points| details_form(status, "Medium", "task", sprint, points);
    let (code, location, page) = f.post("update_details", &good).await;
    assert_eq!((code, location.as_str()), (303, "/issue/WEB-102"));
    assert!(
        page.contains("Updated WEB-102: status In Progress, assignee Isabel Walsh"),
        "{page}"
    );
    let snap = f.store.snapshot("trial-1").unwrap();
    assert_ne!(snap.state_id, before);
    let now = snap.current.value().unwrap();
    let rec = issue(&now, "WEB-102").unwrap();
    assert_eq!(
        (rec["status"].as_str(), rec["assignee"].as_str()),
        (Some("In Progress"), Some("u1"))
    );
    assert_eq!(rec["updated"], TODAY);
    let mut same = rec.clone();
    same["status"] = seed_rec["status"].clone();
    same["assignee"] = seed_rec["assignee"].clone();
    same["updated"] = seed_rec["updated"].clone();
    assert_eq!(same, seed_rec, "nothing else on the issue changed");
    // Submitting the same details again is a success that changes nothing.
    let id = f.store.snapshot("trial-1").unwrap().state_id;
    let (_, _, page) = f.post("update_details", &good).await;
    assert!(page.contains("WEB-102 already had these details"));
    assert_eq!(f.store.snapshot("trial-1").unwrap().state_id, id);

    for (bad, says) in [
        (form("Shipped", "", ""), "The status must be one of To Do, In Progress, In Review, Done, not &quot;Shipped&quot;"),
        (form("Done", "s22", ""), "API Sprint 23 belongs to another project"),
        (form("Done", "s11", ""), "WEB Sprint 22 is closed"),
        (form("Done", "", "five"), "Story points must be a number, not &quot;five&quot;"),
        (form("Done", "s99", ""), "there is no sprint &quot;s99&quot;"),
    ] {
        let (_, _, page) = f.post("update_details", &bad).await;
        assert!(page.contains(says), "{says}: {page}");
        assert!(page.contains(r#"class="flash error""#));
        assert_eq!(f.store.snapshot("trial-1").unwrap().state_id, id, "{says}: nothing written");
    }
    let (_, _, page) = f
        .post("add_comment", &[("issue", "WEB-999"), ("body", "x")])
        .await;
    assert!(page.contains("there is no issue &quot;WEB-999&quot;"));
}

#[tokio::test]
async fn labels_comments_sprints_projects_and_new_issues_go_through_named_operations() {
    let f = fixture("issue-tracker").await;
    let ui = app_ui("issue-tracker").unwrap();
    let mut s = f.current();
    let c = ctx();
    let run = |op: &str, pairs: &[(&str, &str)], s: &mut Value| {
        ui.apply(op, &FormData::of(pairs), &c, s)
            .map(|d| d.message)
            .map_err(|e| e.0)
    };
    assert_eq!(
        run(
            "add_label",
            &[("issue", "WEB-105"), ("label", " Check Out ")],
            &mut s
        )
        .unwrap(),
        "Added label check-out to WEB-105"
    );
    assert_eq!(
        run(
            "add_label",
            &[("issue", "WEB-105"), ("label", "check-out")],
            &mut s
        )
        .unwrap(),
        "WEB-105 already has label check-out"
    );
    assert_eq!(
        issue(&s, "WEB-105").unwrap()["labels"],
        json!(["frontend", "customer", "check-out"])
    );
    assert!(run(
        "add_label",
        &[("issue", "WEB-105"), ("label", "a/b")],
        &mut s
    )
    .unwrap_err()
    .contains("not '/'"));
    run(
        "remove_label",
        &[("issue", "WEB-105"), ("label", "frontend")],
        &mut s,
    )
    .unwrap();
    assert_eq!(
        issue(&s, "WEB-105").unwrap()["labels"],
        json!(["customer", "check-out"])
    );

    run(
        "add_comment",
        &[("issue", "WEB-110"), ("body", "  Reproducible.  ")],
        &mut s,
    )
    .unwrap();
    let comments = issue(&s, "WEB-110").unwrap()["comments"]
        .as_array()
        .unwrap()
        .clone();
    let new = comments.last().unwrap();
    assert_eq!(
        (
            new["author"].as_str(),
            new["body"].as_str(),
            new["created"].as_str()
        ),
        (Some("u1"), Some("Reproducible."), Some(TODAY))
    );
    let all_ids: Vec<String> = s["issues"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| {
            i["comments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].to_string())
        })
        .collect();
    let new_id = new["id"].to_string();
    assert_eq!(
        all_ids.iter().filter(|x| **x == new_id).count(),
        1,
        "comment ids are unique"
    );
    assert_eq!(
        run(
            "add_comment",
            &[("issue", "WEB-110"), ("body", "  ")],
            &mut s
        )
        .unwrap_err(),
        "Write a comment before posting"
    );

    let sprint = [
        ("sprint", "s13"),
        ("name", "WEB Sprint 24"),
        ("goal", "g"),
        ("startDate", "2026-03-17"),
        ("endDate", "2026-03-29"),
        ("state", "future"),
    ];
    run("update_sprint", &sprint, &mut s).unwrap();
    assert_eq!(by(&s, "sprints", "id", "s13")["startDate"], "2026-03-17");
    let mut bad = sprint;
    bad[3].1 = "17/03/2026";
    assert_eq!(
        run("update_sprint", &bad, &mut s).unwrap_err(),
        "The start date must be a date like 2026-03-17, not \"17/03/2026\""
    );
    bad[3].1 = "2026-04-01";
    assert!(run("update_sprint", &bad, &mut s)
        .unwrap_err()
        .contains("ends (2026-03-29) before it starts"));
    bad = sprint;
    bad[1].1 = "WEB Sprint 23";
    assert!(run("update_sprint", &bad, &mut s)
        .unwrap_err()
        .contains("already has a sprint named"));
    let made = ui
        .apply(
            "create_sprint",
            &FormData::of(&[
                ("project", "p2"),
                ("name", "API Sprint 25"),
                ("goal", "Webhooks v2"),
                ("startDate", "2026-03-30"),
                ("endDate", "2026-04-12"),
                ("state", "future"),
            ]),
            &c,
            &mut s,
        )
        .unwrap();
    assert_eq!(made.go.as_deref(), Some("/sprint/s24"));
    assert_eq!(by(&s, "sprints", "id", "s24")["projectId"], "p2");

    run(
        "update_project",
        &[
            ("project", "p3"),
            ("name", "Mobile App"),
            ("lead", "u12"),
            ("description", "RN"),
        ],
        &mut s,
    )
    .unwrap();
    assert_eq!(by(&s, "projects", "id", "p3")["lead"], "u12");
    assert!(run(
        "update_project",
        &[
            ("project", "p3"),
            ("name", "M"),
            ("lead", ""),
            ("description", "")
        ],
        &mut s
    )
    .unwrap_err()
    .contains("Pick a project lead"));

    let new_issue = |sprint: &'static str| {
        vec![
            ("project", "p1"),
            ("type", "bug"),
            ("summary", "Coupon field rejects lowercase codes"),
            ("description", ""),
            ("priority", "High"),
            ("assignee", "u2"),
            ("sprintId", sprint),
            ("storyPoints", "3"),
            ("label", "frontend"),
            ("moreLabels", "Checkout, frontend"),
        ]
    };
    let done = ui
        .apply("create_issue", &FormData::of(&new_issue("s12")), &c, &mut s)
        .unwrap();
    assert_eq!(
        (done.message.as_str(), done.go.as_deref()),
        ("Created WEB-132", Some("/issue/WEB-132"))
    );
    let rec = issue(&s, "WEB-132").unwrap();
    assert_eq!(rec["id"], "i091");
    assert_eq!(rec["labels"], json!(["frontend", "checkout"]));
    assert_eq!(
        (
            rec["status"].as_str(),
            rec["reporter"].as_str(),
            rec["storyPoints"].as_i64()
        ),
        (Some("To Do"), Some("u1"), Some(3))
    );
    assert!(run("create_issue", &new_issue("s33"), &mut s)
        .unwrap_err()
        .contains("MOB Sprint 24 belongs to another project"));
    // The new issue is on the board of its sprint and in the list, with its own page.
    let ui_page = |path: &str, s: &Value| {
        ui.page(path, s, &c)
            .map(|(_, m)| m.into_string())
            .unwrap_or_default()
    };
    assert!(ui_page("/p/p1/board", &s).contains("Coupon field rejects lowercase codes"));
    assert!(ui_page("/p/p1/list/to-do", &s).contains("WEB-132"));
    assert!(ui_page("/issue/WEB-132", &s).contains("Save details"));
    assert!(
        ui.page("/p/p1/list/shipped", &s, &c).is_none(),
        "an unknown filter is no page"
    );
}

#[tokio::test]
async fn issue_tracker_rendering_is_deterministic() {
    let f = fixture("issue-tracker").await;
    for path in [
        "/",
        "/p/p2/backlog",
        "/p/p3/list/mine",
        "/issue/MOB-125",
        "/sprint/s22",
        "/sprints",
        "/p/p1/new-issue",
    ] {
        let (status, page) = f.get(path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!((status, page), f.get(path).await, "{path}");
    }
}
