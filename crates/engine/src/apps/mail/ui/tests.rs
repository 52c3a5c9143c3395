//! Tests of the mail UI over real HTTP (the shared loopback fixture of `ui::tests`): the crawl,
//! and semantic operations through form posts with their refusals.

use serde_json::{json, Value};

use crate::ui::tests::{crawl, fixture, form_of};

pub(super) const TODAY: &str = "2026-03-05T10:00:00Z";

pub(super) fn rec<'a>(state: &'a Value, coll: &str, id: &str) -> &'a Value {
    state[coll]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or(&Value::Null)
}

pub(super) fn without<'a>(state: &'a Value, coll: &str, ids: &[&str]) -> Vec<&'a Value> {
    state[coll]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !ids.contains(&r["id"].as_str().unwrap_or_default()))
        .collect()
}

#[tokio::test]
async fn mail_crawl_finds_no_dead_link_and_no_form_without_an_operation() {
    let (pages, forms) = crawl("mail").await;
    assert!(pages > 90, "crawled {pages} pages");
    assert!(forms > 150, "{forms} forms");
}

#[tokio::test]
async fn mailbox_pages_never_write_and_bulk_actions_are_durable_semantic_writes() {
    let f = fixture("mail").await;
    let before = f.store.snapshot("trial-1").unwrap().state_id;
    let (status, inbox) = f.get("/").await;
    assert_eq!(status, 200);
    assert!(inbox.contains("Quarterly review agenda") && inbox.contains("jordan.lee@northwind.io"));
    assert!(
        inbox.contains(r#"class="row unread starred""#),
        "unread bold, starred marked"
    );
    let (_, reading) = f.get("/m/m001").await;
    assert!(reading.contains("Attached is the agenda") && reading.contains("Reply all"));
    for path in [
        "/",
        "/m/m001",
        "/all",
        "/l/lb1",
        "/compose/reply/m019",
        "/contacts",
    ] {
        assert_eq!(f.get(path).await, f.get(path).await, "deterministic {path}");
    }
    assert_eq!(
        f.store.snapshot("trial-1").unwrap().state_id,
        before,
        "opening pages and messages writes nothing"
    );
    let seed = f.current();

    let (status, location, page) = f
        .post(
            "bulk",
            &[
                ("back", "/f/inbox"),
                ("message", "m009"),
                ("message", "m023"),
                ("do", "archive"),
            ],
        )
        .await;
    assert_eq!((status, location.as_str()), (303, "/f/inbox"));
    assert!(page.contains("Moved 2 messages to Archive"), "{page}");
    let now = f.current();
    assert_eq!(rec(&now, "messages", "m009")["folder"], "archive");
    assert_eq!(rec(&now, "messages", "m023")["folder"], "archive");
    assert_eq!(
        without(&now, "messages", &["m009", "m023"]),
        without(&seed, "messages", &["m009", "m023"])
    );
    f.post("bulk", &[("message", "m009"), ("label", "lb4")])
        .await;
    f.post("bulk", &[("message", "m009"), ("label", "lb4")])
        .await;
    f.post("bulk", &[("message", "m009"), ("do", "star")]).await;
    let now = f.current();
    let m = rec(&now, "messages", "m009");
    assert_eq!(
        m["labels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| *l == "lb4")
            .count(),
        1,
        "a set, not a toggle"
    );
    assert_eq!(m["isStarred"], true);
    f.post("star", &[("message", "m009"), ("starred", "false")])
        .await;
    assert_eq!(rec(&f.current(), "messages", "m009")["isStarred"], false);

    // Refusals: a clear banner, nothing written.
    let id = f.store.snapshot("trial-1").unwrap().state_id;
    for (form, wanted) in [
        (vec![("do", "archive")], "Select at least one message"),
        (
            vec![("message", "m001"), ("move", "sent")],
            "cannot be moved into Sent",
        ),
        (
            vec![("message", "m001"), ("do", "purge")],
            "Only messages in Trash",
        ),
        (
            vec![("message", "m999"), ("do", "read")],
            "there is no message",
        ),
        (
            vec![("message", "m001"), ("label", "lb99")],
            "there is no label",
        ),
    ] {
        let (_, _, page) = f.post("bulk", &form).await;
        assert!(page.contains(wanted), "{wanted}: {page}");
    }
    assert_eq!(f.store.snapshot("trial-1").unwrap().state_id, id);
    let trash: Vec<String> = seed["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["folder"] == "trash")
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    let (_, location, _) = f
        .post("bulk", &[("message", trash[0].as_str()), ("do", "purge")])
        .await;
    assert_eq!(location, "/f/trash");
    assert!(
        rec(&f.current(), "messages", &trash[0]).is_null(),
        "deleted forever"
    );
}

#[tokio::test]
async fn compose_replies_forwards_and_drafts_through_one_form() {
    let f = fixture("mail").await;
    let (_, reply) = f.get("/compose/reply/m019").await;
    let form = form_of(&reply, "compose").unwrap();
    assert!(form.contains(r#"value="aaron.kim@stark.com""#), "{form}");
    assert!(form.contains(r#"value="Re: Invoice #5460 for March services""#));
    assert!(form.contains(r#"name="in_reply_to" value="m019""#));
    let (_, location, page) = f
        .post(
            "compose",
            &[
                ("in_reply_to", "m019"),
                ("to", "Aaron Kim <Aaron.Kim@stark.com>"),
                ("cc", ""),
                ("subject", "Re: Invoice #5460 for March services"),
                ("body", "Paid on March 3.\r\nBest"),
                ("do", "send"),
            ],
        )
        .await;
    assert_eq!(location, "/f/sent");
    assert!(
        page.contains("Message sent to aaron.kim@stark.com"),
        "{page}"
    );
    let s = f.current();
    let sent = s["messages"].as_array().unwrap().last().unwrap();
    assert_eq!(sent["folder"], "sent");
    assert_eq!(sent["to"], json!(["aaron.kim@stark.com"]));
    assert_eq!(
        sent["body"], "Paid on March 3.\nBest",
        "CRLF from the browser normalised"
    );
    assert_eq!(sent["threadId"], rec(&s, "messages", "m019")["threadId"]);
    assert_eq!(sent["date"], TODAY);
    assert_eq!(sent["from"]["email"], "jordan.lee@northwind.io");

    let (_, fwd) = f.get("/compose/forward/m001").await;
    assert!(fwd.contains("Fwd: Quarterly review agenda") && fwd.contains("Forwarded message"));
    // Drafts: edit one, save a new one, send one (it leaves the drafts).
    f.post(
        "compose",
        &[
            ("draft", "d002"),
            ("to", "maya.costa@wayne.com"),
            ("cc", ""),
            ("subject", "Offsite venues shortlist"),
            ("body", "x"),
            ("do", "save"),
        ],
    )
    .await;
    let (_, location, _) = f
        .post(
            "compose",
            &[
                ("to", ""),
                ("subject", "Later"),
                ("body", ""),
                ("do", "save"),
            ],
        )
        .await;
    assert_eq!(location, "/drafts/d003");
    f.post(
        "compose",
        &[
            ("draft", "d001"),
            ("to", "kavya.okafor@hooli.com"),
            ("subject", "Follow-up"),
            ("body", "Hi"),
            ("do", "send"),
        ],
    )
    .await;
    let s = f.current();
    assert_eq!(
        rec(&s, "drafts", "d002")["to"],
        json!(["maya.costa@wayne.com"])
    );
    assert_eq!(
        rec(&s, "drafts", "d002")["subject"],
        "Offsite venues shortlist"
    );
    assert_eq!(rec(&s, "drafts", "d003")["subject"], "Later");
    assert!(
        rec(&s, "drafts", "d001").is_null(),
        "a sent draft leaves the drafts"
    );
    let id = f.store.snapshot("trial-1").unwrap().state_id;
    for (form, wanted) in [
        (
            vec![("to", ""), ("subject", "x"), ("body", "x"), ("do", "send")],
            "Add at least one recipient",
        ),
        (
            vec![
                ("to", "kavya, zoe@acme.com"),
                ("subject", "x"),
                ("body", "x"),
                ("do", "send"),
            ],
            "&quot;kavya&quot; is not an email address",
        ),
        (
            vec![
                ("to", "a@b.co"),
                ("subject", "x"),
                ("body", "x"),
                ("do", "discard"),
            ],
            "no saved draft",
        ),
    ] {
        let (_, _, page) = f.post("compose", &form).await;
        assert!(page.contains(wanted), "{wanted}: {page}");
    }
    assert_eq!(f.store.snapshot("trial-1").unwrap().state_id, id);
}

#[tokio::test]
async fn contacts_labels_folders_and_filters_go_through_named_operations() {
    let f = fixture("mail").await;
    let (_, location, page) = f
        .post(
            "create_contact",
            &[
                ("name", "Priya Natarajan"),
                ("email", "priya@globex.com"),
                ("company", "Globex"),
                ("phone", "+1-555-0142"),
            ],
        )
        .await;
    assert_eq!(location, "/contacts");
    assert!(page.contains("Added Priya Natarajan"));
    let (_, _, page) = f
        .post(
            "create_contact",
            &[("name", "P2"), ("email", "PRIYA@globex.com")],
        )
        .await;
    assert!(
        page.contains("Priya Natarajan already has the address priya@globex.com"),
        "{page}"
    );
    f.post("create_label", &[("name", "Clients"), ("color", "#8E44AD")])
        .await;
    let (_, _, page) = f
        .post("create_label", &[("name", "clients"), ("color", "#000000")])
        .await;
    assert!(page.contains("already exists"));
    let (_, _, page) = f
        .post("create_label", &[("name", "X"), ("color", "purple")])
        .await;
    assert!(page.contains("is not a colour"));
    f.post(
        "create_filter",
        &[
            ("from", "billing@stark.com"),
            ("subject", ""),
            ("label", "lb2"),
            ("folder", "f-receipts"),
        ],
    )
    .await;
    let (_, _, page) = f
        .post(
            "create_filter",
            &[
                ("from", ""),
                ("subject", ""),
                ("label", "lb2"),
                ("folder", ""),
            ],
        )
        .await;
    assert!(page.contains("a sender or a subject"));
    let (_, _, page) = f
        .post("rename_folder", &[("folder", "inbox"), ("name", "In")])
        .await;
    assert!(page.contains("system folder"));
    let (_, _, page) = f.post("delete_folder", &[("folder", "f-receipts")]).await;
    assert!(page.contains("still holds"));
    f.post(
        "rename_folder",
        &[("folder", "f-receipts"), ("name", "Receipts 2026")],
    )
    .await;
    f.post("create_folder", &[("name", "Old Projects")]).await;
    f.post("delete_label", &[("label", "lb1")]).await;
    let s = f.current();
    let c = s["contacts"].as_array().unwrap().last().unwrap();
    assert_eq!(
        (
            c["id"].as_str(),
            c["company"].as_str(),
            c["starred"].as_bool()
        ),
        (Some("ct025"), Some("Globex"), Some(false))
    );
    assert_eq!(
        rec(&s, "labels", "lb6"),
        &json!({"id": "lb6", "name": "Clients", "color": "#8e44ad"})
    );
    assert_eq!(
        rec(&s, "filters", "fl2"),
        &json!({"id": "fl2", "match": {"from": "billing@stark.com"}, "action": {"label": "lb2", "folder": "f-receipts"}})
    );
    assert_eq!(rec(&s, "folders", "f-receipts")["name"], "Receipts 2026");
    assert_eq!(rec(&s, "folders", "f-old-projects")["system"], false);
    assert!(
        s["messages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| !m["labels"].as_array().unwrap().contains(&json!("lb1"))),
        "a deleted label leaves its messages"
    );
}
