//! Tests of the team-chat UI origin over real HTTP (a loopback server bound to one session of a
//! real session store): rendering, semantic operations through form posts, isolation, a crawl
//! for dead links and forms, and the coverage of every field the shipped team-chat tasks change.

use serde_json::Value;

use super::ops::OPS;
use crate::ui::tests::{crawl, fixture, form_of, TODAY};
use crate::ui::{app_ui, Ctx, FormData, Today};


fn channel<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()
}

#[tokio::test]
async fn team_chat_renders_the_session_and_a_form_post_is_a_durable_semantic_write() {
    let f = fixture("team-chat").await;
    let (status, home) = f.get("/").await;
    assert_eq!(status, 200);
    assert!(home.contains("Northwind"), "workspace name shown");
    assert!(home.contains("Reminder: all-hands is Thursday at 4pm"));
    let before = f.store.snapshot("trial-1").unwrap().state_id;

    let (status, location, page) = f
        .post(
            "rename_channel",
            &[
                ("back", "/c/C02/details"),
                ("channel", "C02"),
                ("name", "Water Cooler"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(location, "/c/C02/details");
    assert!(
        page.contains("Renamed #random to #water-cooler"),
        "flash shown once"
    );
    let snap = f.store.snapshot("trial-1").unwrap();
    assert_ne!(snap.state_id, before, "state_id moved with the write");
    assert_eq!(
        channel(&snap.current.value().unwrap(), "C02")["name"],
        "water-cooler"
    );
    let (_, again) = f.get("/c/C02/details").await;
    assert!(!again.contains("Renamed #random"), "the flash is transient");
    assert!(
        !snap.current.json.windows(7).any(|w| w == b"Renamed"),
        "flash not in the state"
    );

    // Bad input: a clear error in the banner, nothing written.
    let id = f.store.snapshot("trial-1").unwrap().state_id;
    let (_, _, page) = f
        .post(
            "rename_channel",
            &[
                ("back", "/c/C02/details"),
                ("channel", "C02"),
                ("name", "general"),
            ],
        )
        .await;
    assert!(page.contains("A channel named #general already exists"));
    assert_eq!(f.store.snapshot("trial-1").unwrap().state_id, id);
    let (_, _, page) = f
        .post("rename_channel", &[("channel", "C99"), ("name", "x")])
        .await;
    assert!(
        page.contains("there is no channel &quot;C99&quot;"),
        "{page}"
    );
}

#[tokio::test]
async fn the_agent_origin_serves_no_state_api_and_no_sid() {
    let f = fixture("team-chat").await;
    for path in [
        "/go",
        "/state",
        "/go?sid=trial-1",
        "/files/trial-1/x",
        "/health",
    ] {
        assert_eq!(f.get(path).await.0, 404, "{path}");
    }
    let r = f
        .http
        .post(format!("http://{}/post?sid=trial-1", f.ui.addr))
        .body(r#"{"action":"set_current","state":{}}"#)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_client_error());
    assert_eq!(
        f.get("/op/send_message").await.0,
        405,
        "operations are POST only"
    );
    let (status, _, _) = f.post("set_current", &[("state", "{}")]).await;
    assert_eq!(status, 404, "only named operations exist");
    assert!(
        !f.get("/").await.1.contains("trial-1"),
        "no sid in any page"
    );
}

#[tokio::test]
async fn messages_threads_and_reactions_go_through_named_operations() {
    let f = fixture("team-chat").await;
    f.post(
        "send_message",
        &[
            ("back", "/c/C01"),
            ("channel", "C01"),
            ("text", "Friday at 3pm"),
        ],
    )
    .await;
    f.post(
        "reply_in_thread",
        &[("channel", "C01"), ("parent", "M01003"), ("text", "Noted")],
    )
    .await;
    f.post(
        "toggle_reaction",
        &[
            ("channel", "C01"),
            ("message", "M01003"),
            ("emoji", "thumbsup"),
        ],
    )
    .await;
    let s = f.current();
    let msgs = s["messages"]["C01"].as_array().unwrap();
    let posted = msgs.iter().find(|m| m["text"] == "Friday at 3pm").unwrap();
    assert_eq!(posted["userId"], "U01");
    assert!(posted["threadTs"].is_null());
    let parent = msgs.iter().find(|m| m["id"] == "M01003").unwrap();
    assert_eq!(parent["replyCount"], 2);
    let reply = msgs.iter().find(|m| m["text"] == "Noted").unwrap();
    assert_eq!(reply["threadTs"], parent["ts"]);
    assert_eq!(parent["reactions"][0]["emoji"], "thumbsup");
    assert_eq!(parent["reactions"][0]["users"][0], "U01");
    // The fixed clock: the new message is stamped at "today", after everything before it.
    let ts = crate::ui::clock::ts_micros(posted["ts"].as_str().unwrap()).unwrap();
    assert_eq!(ts, Today::parse(TODAY).unwrap().micros());
    let (_, thread) = f.get("/c/C01/thread/M01003").await;
    assert!(thread.contains("Noted") && thread.contains("Send reply"));
    // Toggling again removes the reaction.
    f.post(
        "toggle_reaction",
        &[
            ("channel", "C01"),
            ("message", "M01003"),
            ("emoji", "thumbsup"),
        ],
    )
    .await;
    let s = f.current();
    let parent = s["messages"]["C01"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == "M01003")
        .unwrap()
        .clone();
    assert_eq!(parent["reactions"], serde_json::json!([]));
    let (_, _, page) = f
        .post("send_message", &[("channel", "C10"), ("text", "hi")])
        .await;
    assert!(
        page.contains("archived"),
        "posting in an archived channel is refused"
    );
}

#[tokio::test]
async fn rendering_is_deterministic() {
    let f = fixture("team-chat").await;
    for path in [
        "/",
        "/c/C03",
        "/c/C01/thread/M01003",
        "/c/C04/details",
        "/profile",
    ] {
        assert_eq!(f.get(path).await, f.get(path).await, "{path}");
    }
}


#[tokio::test]
async fn crawl_finds_no_dead_link_and_no_form_without_an_operation() {
    let (pages, forms) = crawl("team-chat").await;
    assert!(pages > 20, "crawled {pages} pages");
    assert!(forms > 50, "{forms} forms");
}


/// (state path, page, operation, form field) for every record field a UI form can set.
const FIELD_FORMS: &[(&str, &str, &str, &str)] = &[
    ("channels.name", "/c/{id}/details", "rename_channel", "name"),
    ("channels.topic", "/c/{id}/details", "set_topic", "topic"),
    (
        "channels.purpose",
        "/c/{id}/details",
        "set_topic",
        "purpose",
    ),
    (
        "channels.isPrivate",
        "/c/{id}/details",
        "set_privacy",
        "private",
    ),
    (
        "channels.isArchived",
        "/c/{id}/details",
        "archive_channel|unarchive_channel",
        "channel",
    ),
    (
        "channels.members",
        "/c/{id}/details",
        "invite_members",
        "user",
    ),
    ("users.title", "/profile", "update_profile", "title"),
    ("users.timezone", "/profile", "update_profile", "timezone"),
    (
        "users.displayName",
        "/profile",
        "update_profile",
        "displayName",
    ),
];

/// Every field a shipped team-chat task changes has a form on a page that can write it, and
/// performing those forms with the task's values yields exactly the values the task wants.
#[tokio::test]
async fn every_field_the_shipped_team_chat_tasks_change_has_a_working_form() {
    let f = fixture("team-chat").await;
    let tasks: Value =
        serde_json::from_str(include_str!("../tasks.json")).unwrap();
    let ui = app_ui("team-chat").unwrap();
    let ctx = Ctx {
        today: Today::parse(TODAY).unwrap(),
    };
    let seed = f.current();
    let mut checked = 0;
    for task in tasks["tasks"].as_array().unwrap() {
        let slots = &task["slots"];
        let id = task["task_id"].as_str().unwrap();
        match task["template"].as_str().unwrap() {
            "update_records" => {
                let coll = slots["collection"].as_str().unwrap();
                for key in slots["keys"].as_array().unwrap() {
                    let key = key.as_str().unwrap();
                    let mut state = seed.clone();
                    for (field, want) in slots["changes"].as_object().unwrap() {
                        let name = field.trim_end_matches('+');
                        let path = format!("{coll}.{name}");
                        let (_, page, ops, input) = FIELD_FORMS
                            .iter()
                            .find(|(p, ..)| *p == path)
                            .unwrap_or_else(|| panic!("{id}: no form writes {path}"));
                        assert!(OPS
                            .iter()
                            .any(|(op, paths)| ops.contains(op) && paths.contains(&path.as_str())));
                        let (_, html) = f.get(&page.replace("{id}", key)).await;
                        let op = ops
                            .split('|')
                            .find(|op| {
                                form_of(&html, op)
                                    .is_some_and(|h| h.contains(&format!(r#"name="{input}""#)))
                            })
                            .unwrap_or_else(|| {
                                panic!("{id}: {page} has no {ops} form with field {input}")
                            });
                        let form = form_for(op, key, want, &state[coll], name);
                        ui.apply(op, &form, &ctx, &mut state)
                            .unwrap_or_else(|e| panic!("{id}: {op}: {e}"));
                        let rec = state[coll]
                            .as_array()
                            .unwrap()
                            .iter()
                            .find(|r| r["id"] == key)
                            .unwrap();
                        match want {
                            Value::Array(items) => {
                                for item in items {
                                    assert!(
                                        rec[name].as_array().unwrap().contains(item),
                                        "{id}: {name}"
                                    );
                                }
                            }
                            _ => assert_eq!(&rec[name], want, "{id}: {path}"),
                        }
                        checked += 1;
                    }
                }
            }
            "create_record" => {
                let rec = &slots["record"];
                let (_, html) = f.get("/new-channel").await;
                let form_html = form_of(&html, "create_channel").unwrap();
                for input in ["name", "topic", "purpose", "private", "member"] {
                    assert!(
                        form_html.contains(&format!(r#"name="{input}""#)),
                        "{id}: {input}"
                    );
                }
                let mut pairs = vec![
                    (
                        "name".to_string(),
                        rec["name"].as_str().unwrap().to_string(),
                    ),
                    ("topic".into(), rec["topic"].as_str().unwrap().into()),
                    ("purpose".into(), rec["purpose"].as_str().unwrap().into()),
                ];
                if rec["isPrivate"] == true {
                    pairs.push(("private".into(), "true".into()));
                }
                for m in rec["members"].as_array().unwrap() {
                    pairs.push(("member".into(), m.as_str().unwrap().into()));
                }
                let mut state = seed.clone();
                ui.apply("create_channel", &FormData(pairs), &ctx, &mut state)
                    .unwrap();
                let made = state["channels"]
                    .as_array()
                    .unwrap()
                    .last()
                    .unwrap()
                    .clone();
                for (k, v) in slots["expect"].as_object().unwrap() {
                    let k = k.trim_end_matches('+');
                    match v {
                        Value::Array(items) => items.iter().for_each(|i| {
                            assert!(made[k].as_array().unwrap().contains(i), "{id}: {k}")
                        }),
                        _ => assert_eq!(&made[k], v, "{id}: {k}"),
                    }
                }
                assert_eq!(made["name"], rec["name"]);
                checked += 1;
            }
            "post_message" | "thread_reply" | "add_reaction" => {
                let ch = slots["channel"].as_str().unwrap();
                let cid = seed["channels"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["name"] == ch)
                    .unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_string();
                let (_, html) = f.get(&format!("/c/{cid}")).await;
                assert!(
                    form_of(&html, "send_message").is_some_and(|h| h.contains(r#"name="text""#)),
                    "{id}"
                );
                assert!(html.contains(r#"action="/op/toggle_reaction""#), "{id}");
                assert!(html.contains("/thread/"), "{id}: a thread link");
                checked += 1;
            }
            other => panic!("{id}: template {other} is not covered by the team-chat UI"),
        }
    }
    assert!(checked >= 24, "checked {checked}");
}

fn form_for(op: &str, key: &str, want: &Value, records: &Value, field: &str) -> FormData {
    let rec = records
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == key)
        .unwrap();
    let text = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string())
    };
    let mut pairs = vec![("channel".to_string(), key.to_string())];
    match op {
        "set_topic" => {
            for f in ["topic", "purpose"] {
                let v = if f == field {
                    text(want)
                } else {
                    text(&rec[f])
                };
                pairs.push((f.into(), v));
            }
        }
        "invite_members" => {
            for u in want.as_array().unwrap() {
                pairs.push(("user".into(), text(u)));
            }
        }
        "update_profile" => {
            pairs.clear();
            for f in ["displayName", "title", "timezone"] {
                let v = if f == field {
                    text(want)
                } else {
                    text(&rec[f])
                };
                pairs.push((f.into(), v));
            }
        }
        "set_privacy" => pairs.push(("private".into(), text(want))),
        "archive_channel" | "unarchive_channel" => {}
        _ => pairs.push((field.into(), text(want))),
    }
    FormData(pairs)
}
