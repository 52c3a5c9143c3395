//! Contract tests of the state API server (`tuplewright::engine::env`) over real HTTP on
//! loopback: every endpoint and error, role enforcement, diff rules, restart, concurrency.
//! (Store, apps and files-domain tests without HTTP live in `crates/engine/src/env/tests.rs`.)

use crate::common;

use common::http::{call, multipart, Conn};
use common::{assert_error, config, get_json, pairs, post, role_headers, start};
use serde_json::{json, Value};
use tuplewright::engine::env::ServerConfig;

#[tokio::test]
async fn every_endpoint_answers_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let h = start(config(dir.path()), &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let seed = h.store("team-chat").unwrap().app().seed.clone();

    let health = get_json(a, "/health").await;
    assert_eq!(health["ok"], true);
    assert_eq!(health["app"], "team-chat");

    // A fresh session reads the defaults, no custom state, empty diff.
    let st = get_json(a, "/state?sid=fresh").await;
    assert_eq!(st["has_custom_state"], false);
    assert_eq!(st["stored_state"], *seed);
    let go = get_json(a, "/go?sid=fresh").await;
    assert_eq!(go["state_diff"], json!({}));
    assert_eq!(go["changes"], json!([]));

    // set: defaults fill missing keys, given values win, arrays replace.
    let r = post(
        a,
        "s1",
        json!({"action": "set", "state": {"currentUser": "U02", "dms": []}}),
        None,
    )
    .await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["success"], true);
    assert_eq!(v["sid"], "s1");
    let id_after_set = v["state_id"].as_str().unwrap().to_string();
    let go = get_json(a, "/go?sid=s1").await;
    assert_eq!(go["initial_state"], go["current_state"]);
    assert_eq!(go["current_state"]["currentUser"], "U02");
    assert_eq!(go["current_state"]["dms"], json!([]));
    assert_eq!(go["current_state"]["users"], seed["users"]);
    assert_eq!(go["state_diff"], json!({}));
    assert_eq!(get_json(a, "/state?sid=s1").await["has_custom_state"], true);

    // merge: objects recurse; the diff is flat with old/new.
    let r = post(
        a,
        "s1",
        json!({"action": "merge", "state": {"workspace": {"name": "Acme"}}}),
        None,
    )
    .await;
    assert_ne!(r.json()["state_id"], id_after_set.as_str());
    let go = get_json(a, "/go?sid=s1").await;
    assert_eq!(
        go["state_diff"],
        json!({"workspace.name": {"old": "Northwind", "new": "Acme"}})
    );
    assert_eq!(go["current_state"]["workspace"]["domain"], "northwind.chat");

    // set_current with merge:true acts as merge (public variant of the body).
    post(
        a,
        "s1",
        json!({"action": "set_current", "merge": true, "state": {"extra": {"k": 1}}}),
        None,
    )
    .await;
    let go = get_json(a, "/go?sid=s1").await;
    assert_eq!(
        go["state_diff"]["extra"],
        json!({"old": null, "new": {"k": 1}, "added": true})
    );

    // set_current replaces the current snapshot only: removed keys are reported.
    post(
        a,
        "s1",
        json!({"action": "set_current", "state": {"currentUser": "U03"}}),
        None,
    )
    .await;
    let go = get_json(a, "/go?sid=s1").await;
    assert_eq!(
        go["state_diff"]["currentUser"],
        json!({"old": "U02", "new": "U03"})
    );
    assert_eq!(go["state_diff"]["users"]["removed"], true);
    assert_eq!(go["state_diff"]["users"]["new"], Value::Null);
    assert_eq!(go["initial_state"]["currentUser"], "U02");

    // upload, served back, then reset deletes uploads and restores defaults.
    let (ctype, body) = multipart(&[
        ("file", "../report Q1.csv", "text/csv", b"a,b\n1,2\n"),
        ("f2", "notes.md", "text/markdown", b"# hi"),
    ]);
    let r = call(
        a,
        "POST",
        "/upload?sid=s1",
        &[("Content-Type", &ctype)],
        &body,
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let up = r.json();
    assert_eq!(up["success"], true);
    let files = up["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["original_name"], "../report Q1.csv");
    assert_eq!(files[0]["size"], 8);
    assert_eq!(files[0]["content_type"], "text/csv");
    let stored = files[0]["stored_name"].as_str().unwrap();
    assert!(
        stored.ends_with("_report_Q1.csv") && !stored.contains('/'),
        "{stored}"
    );
    let url = files[0]["url"].as_str().unwrap().to_string();
    assert_eq!(url, format!("/files/s1/{stored}"));
    let got = call(a, "GET", &url, &[], b"").await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body, b"a,b\n1,2\n");
    assert_eq!(got.header("content-type"), Some("text/csv"));

    let r = post(a, "s1", json!({"action": "reset"}), None).await;
    assert_eq!(r.status, 200);
    let st = get_json(a, "/state?sid=s1").await;
    assert_eq!(st["has_custom_state"], false);
    assert_eq!(st["stored_state"], *seed);
    assert_error(&call(a, "GET", &url, &[], b"").await, 404, "not_found");

    // DELETE /session drops it.
    post(
        a,
        "s2",
        json!({"action": "set", "state": {"currentUser": "U05"}}),
        None,
    )
    .await;
    let r = call(a, "DELETE", "/session?sid=s2", &[], b"").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["existed"], true);
    assert_eq!(
        get_json(a, "/state?sid=s2").await["has_custom_state"],
        false
    );
    let r = call(a, "DELETE", "/session?sid=never", &[], b"").await;
    assert_eq!(r.json()["existed"], false);
    h.shutdown().await;
}

#[tokio::test]
async fn every_error_is_json_with_the_right_status() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        body_limit_bytes: 4096,
        ..config(dir.path())
    };
    let h = start(cfg, &["mail"]).await;
    let a = h.addr("mail").unwrap();
    for path in ["/go", "/state", "/go?other=1"] {
        assert_error(&call(a, "GET", path, &[], b"").await, 400, "missing_sid");
    }
    let long = "a".repeat(129);
    for sid in ["a/b", "a.b", "%20", "", long.as_str(), "x%2F..%2Fy"] {
        assert_error(
            &call(a, "GET", &format!("/go?sid={sid}"), &[], b"").await,
            400,
            "invalid_sid",
        );
    }
    assert_eq!(
        call(a, "GET", &format!("/go?sid={}", "a".repeat(128)), &[], b"")
            .await
            .status,
        200
    );
    assert_error(
        &call(a, "POST", "/post", &[], b"{}").await,
        400,
        "missing_sid",
    );
    assert_error(
        &call(a, "POST", "/post?sid=e", &[], b"{\"action\":").await,
        400,
        "malformed_json",
    );
    assert_error(
        &call(a, "POST", "/post?sid=e", &[], b"[1,2]").await,
        400,
        "malformed_json",
    );
    assert_error(
        &post(a, "e", json!({"action": "destroy", "state": {}}), None).await,
        400,
        "unknown_action",
    );
    assert_error(
        &post(a, "e", json!({"state": {}}), None).await,
        400,
        "unknown_action",
    );
    for bad in [json!([1]), json!("x"), json!(3), Value::Null] {
        assert_error(
            &post(a, "e", json!({"action": "set", "state": bad}), None).await,
            400,
            "state_not_object",
        );
    }
    assert_error(
        &post(a, "e", json!({"action": "merge"}), None).await,
        400,
        "state_not_object",
    );
    // Over the body limit: 413, for JSON and for multipart.
    let big = json!({"action": "set", "state": {"blob": "x".repeat(8000)}});
    assert_error(&post(a, "e", big, None).await, 413, "payload_too_large");
    let (ctype, body) = multipart(&[("file", "big.bin", "application/octet-stream", &[7u8; 9000])]);
    assert_error(
        &call(
            a,
            "POST",
            "/upload?sid=e",
            &[("Content-Type", &ctype)],
            &body,
        )
        .await,
        413,
        "payload_too_large",
    );
    let (ctype, body) = multipart(&[]);
    assert_error(
        &call(
            a,
            "POST",
            "/upload?sid=e",
            &[("Content-Type", &ctype)],
            &body,
        )
        .await,
        400,
        "no_files",
    );
    assert_error(
        &call(a, "GET", "/files/e/..hidden", &[], b"").await,
        400,
        "invalid_file_name",
    );
    assert_error(
        &call(a, "GET", "/files/e/nothing.txt", &[], b"").await,
        404,
        "not_found",
    );
    assert_error(&call(a, "GET", "/nope", &[], b"").await, 404, "not_found");
    assert_error(
        &call(a, "PUT", "/go?sid=e", &[], b"").await,
        405,
        "method_not_allowed",
    );
    // The session touched by failed writes stayed untouched.
    assert_eq!(get_json(a, "/state?sid=e").await["has_custom_state"], false);
    h.shutdown().await;
}

#[tokio::test]
async fn role_header_is_enforced_and_refusals_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let h = start(config(dir.path()), &["issue-tracker"]).await;
    let a = h.addr("issue-tracker").unwrap();
    let (ctype, up) = multipart(&[("file", "a.txt", "text/plain", b"x")]);
    let upload = |role: &'static str| {
        let (ctype, up) = (ctype.clone(), up.clone());
        async move {
            let mut headers = vec![("Content-Type", ctype.as_str())];
            let trusted = role_headers(role);
            headers.extend(pairs(&trusted));
            call(a, "POST", "/upload?sid=r", &headers, &up).await
        }
    };
    #[rustfmt::skip]
    let cases: &[(&str, &str, bool)] = &[
        ("setup", "set", true), ("setup", "reset", true), ("setup", "set_current", true),
        ("setup", "merge", true), ("golden", "set_current", true), ("golden", "merge", true),
        ("golden", "set", false), ("golden", "reset", false), ("reader", "set", false),
        ("reader", "set_current", false), ("reader", "merge", false), ("reader", "reset", false),
        ("admin", "set", false),
    ];
    let mut refused = 0;
    for (role, action, allowed) in cases {
        let r = post(
            a,
            "r",
            json!({"action": action, "state": {"probe": {"by": role}}}),
            Some(role),
        )
        .await;
        if *allowed {
            assert_eq!(
                r.status,
                200,
                "{role} {action}: {}",
                String::from_utf8_lossy(&r.body)
            );
        } else {
            assert_error(&r, 403, "forbidden");
            refused += 1;
        }
    }
    // A refused write leaves the state as the last allowed write made it.
    assert_eq!(
        get_json(a, "/state?sid=r").await["stored_state"]["probe"]["by"],
        "golden"
    );
    for (role, ok) in [("setup", true), ("golden", true), ("reader", false)] {
        let r = upload(role).await;
        assert_eq!(r.status == 200, ok, "upload as {role}: {}", r.status);
        if !ok {
            assert_error(&r, 403, "forbidden");
            refused += 1;
        }
    }
    for role in ["setup", "golden", "reader"] {
        let r = call(
            a,
            "DELETE",
            "/session?sid=r",
            &pairs(&role_headers(role)),
            b"",
        )
        .await;
        assert_error(&r, 403, "forbidden");
        refused += 1;
    }
    // Readers may read everything; a reader's write to any other path is refused too.
    for path in ["/go?sid=r", "/state?sid=r", "/health"] {
        let r = call(a, "GET", path, &pairs(&role_headers("reader")), b"").await;
        assert_eq!(r.status, 200, "{path}");
    }
    let r = call(
        a,
        "PUT",
        "/state?sid=r",
        &pairs(&role_headers("reader")),
        b"{}",
    )
    .await;
    assert_error(&r, 403, "forbidden");
    refused += 1;
    assert_eq!(h.audit.count(), refused);
    let log = h.audit.recent();
    assert_eq!(log.len() as u64, refused);
    assert!(log
        .iter()
        .any(|e| e.role == "golden" && e.action.as_deref() == Some("set")));
    assert_eq!(get_json(a, "/health").await["refused_writes"], refused);
    h.shutdown().await;
}

#[tokio::test]
async fn diff_rules_hold_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let h = start(config(dir.path()), &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let seed = h.store("team-chat").unwrap().app().seed.clone();
    post(a, "d", json!({"action": "set", "state": {}}), None).await;
    // Viewing only (lastViewedAt at any depth, ui.*) does not show in the diff.
    let mut channels = seed["channels"].clone();
    channels[0]["lastViewedAt"] = json!("2030-01-01T00:00:00Z");
    post(a, "d", json!({"action": "merge", "state": {"channels": channels, "ui": {"draft": "typing"}, "lastViewedAt": "x"}}), None).await;
    let go = get_json(a, "/go?sid=d").await;
    assert_eq!(go["state_diff"], json!({}), "{}", go["state_diff"]);
    // A posted message: the array is reported whole; `changes` names the added element by id.
    let mut msgs = seed["messages"]["C03"].clone();
    let new_msg = json!({"id": "Mnew", "userId": "U01", "text": "Deploy done", "ts": "1.0", "threadTs": null,
        "replyCount": 0, "edited": false, "reactions": [], "attachments": []});
    msgs.as_array_mut().unwrap().push(new_msg.clone());
    msgs[0]["edited"] = json!(true);
    post(
        a,
        "d",
        json!({"action": "merge", "state": {"messages": {"C03": msgs}}}),
        None,
    )
    .await;
    let go = get_json(a, "/go?sid=d").await;
    let diff = go["state_diff"].as_object().unwrap();
    assert_eq!(diff.keys().collect::<Vec<_>>(), vec!["messages.C03"]);
    assert_eq!(diff["messages.C03"]["old"], seed["messages"]["C03"]);
    let changes = go["changes"].as_array().unwrap();
    let added: Vec<_> = changes.iter().filter(|c| c["op"] == "added").collect();
    assert_eq!(added.len(), 1);
    assert_eq!(added[0]["path"], "messages.C03");
    assert_eq!(added[0]["by"], "id");
    assert_eq!(added[0]["key"], "Mnew");
    assert_eq!(added[0]["new"], new_msg);
    let changed: Vec<_> = changes.iter().filter(|c| c["op"] == "changed").collect();
    assert_eq!(changed.len(), 1);
    assert_eq!(
        changed[0]["fields"],
        json!({"edited": {"old": false, "new": true}})
    );
    h.shutdown().await;
}

#[tokio::test]
async fn go_is_gzip_encoded_when_accepted() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let h = start(config(dir.path()), &["mail"]).await;
    let a = h.addr("mail").unwrap();
    post(a, "z", json!({"action": "set", "state": {}}), None).await;
    post(
        a,
        "z",
        json!({"action": "merge", "state": {"account": {"name": "Z"}}}),
        None,
    )
    .await;
    let plain = call(a, "GET", "/go?sid=z", &[], b"").await;
    assert_eq!(plain.header("content-encoding"), None);
    for accept in ["gzip", "deflate, gzip;q=0.8", "*"] {
        let z = call(a, "GET", "/go?sid=z", &[("Accept-Encoding", accept)], b"").await;
        assert_eq!(z.status, 200);
        assert_eq!(z.header("content-encoding"), Some("gzip"), "{accept}");
        assert!(
            z.body.len() * 3 < plain.body.len(),
            "{} vs {}",
            z.body.len(),
            plain.body.len()
        );
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&z.body[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, plain.body);
    }
    let no = call(
        a,
        "GET",
        "/go?sid=z",
        &[("Accept-Encoding", "gzip;q=0, br")],
        b"",
    )
    .await;
    assert_eq!(no.header("content-encoding"), None);
    assert_eq!(no.body, plain.body);
    h.shutdown().await;
}

#[tokio::test]
async fn server_restart_keeps_sessions_and_uploads() {
    let dir = tempfile::tempdir().unwrap();
    let h = start(config(dir.path()), &["ecommerce-admin"]).await;
    let a = h.addr("ecommerce-admin").unwrap();
    post(
        a,
        "keep",
        json!({"action": "set", "state": {"store": {"name": "Before"}}}),
        None,
    )
    .await;
    post(
        a,
        "keep",
        json!({"action": "merge", "state": {"store": {"name": "After"}}}),
        None,
    )
    .await;
    let (ctype, body) = multipart(&[("file", "logo.png", "image/png", b"\x89PNG....")]);
    let up = call(
        a,
        "POST",
        "/upload?sid=keep",
        &[("Content-Type", &ctype)],
        &body,
    )
    .await
    .json();
    let url = up["files"][0]["url"].as_str().unwrap().to_string();
    let before = get_json(a, "/go?sid=keep").await;
    h.shutdown().await;

    let h = start(config(dir.path()), &["ecommerce-admin"]).await;
    let a = h.addr("ecommerce-admin").unwrap();
    let after = get_json(a, "/go?sid=keep").await;
    assert_eq!(after, before);
    assert_eq!(
        after["state_diff"],
        json!({"store.name": {"old": "Before", "new": "After"}})
    );
    assert_eq!(call(a, "GET", &url, &[], b"").await.body, b"\x89PNG....");
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn forty_concurrent_sessions_see_only_their_own_writes() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let h = start(
        ServerConfig {
            cache_capacity: 16,
            ..config(dir.path())
        },
        &["team-chat"],
    )
    .await;
    let a = h.addr("team-chat").unwrap();
    let mut tasks = Vec::new();
    for n in 0..40u64 {
        tasks.push(tokio::spawn(async move {
            let sid = format!("conc-{n}");
            let mut rng = rand::rngs::StdRng::seed_from_u64(n);
            let mut conn = Conn::connect(a).await.unwrap();
            let mut model = json!({});
            for step in 0..25 {
                let op = rng.random_range(0..4);
                let val = json!({"owner": sid, "step": step});
                let body = match op {
                    0 => json!({"action": "merge", "state": {"probe": {format!("k{}", step % 3): val}}}),
                    1 => json!({"action": "set", "state": {"probe": {"k0": val}}}),
                    2 => json!({"action": "reset"}),
                    _ => json!({"action": "merge", "state": {"probe": {"k1": val}}}),
                };
                let path = format!("/post?sid={sid}");
                let r = conn.send("POST", &path, &[], body.to_string().as_bytes()).await.unwrap();
                assert_eq!(r.status, 200);
                match op {
                    0 => model[format!("k{}", step % 3)] = val,
                    1 => model = json!({"k0": val}),
                    2 => model = json!({}),
                    _ => model["k1"] = val,
                }
                let st = conn.send("GET", &format!("/state?sid={sid}"), &[], b"").await.unwrap().json();
                let probe = st["stored_state"].get("probe").cloned().unwrap_or(json!({}));
                assert_eq!(probe, model, "session {sid} step {step}");
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert!(h.store("team-chat").unwrap().cached_len() <= 16 + 40);
    h.shutdown().await;
}

/// Issue #35: a role header a client sends itself (without the forwarder's secret) is dropped
/// before any handler: the request is the caller's own (here loopback, full access), not the role's.
#[tokio::test]
async fn a_role_header_without_the_forwarder_secret_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let h = start(config(dir.path()), &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let forged = [
        ("Content-Type", "application/json"),
        ("X-Tuplewright-Role", "reader"),
        ("X-Tuplewright-Forwarder", "a-guess"),
    ];
    let body = json!({"action": "set", "state": {"x": 1}}).to_string();
    let r = call(a, "POST", "/post?sid=f", &forged, body.as_bytes()).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    // The same role from the forwarder is enforced.
    let r = post(
        a,
        "f",
        json!({"action": "set", "state": {"x": 2}}),
        Some("reader"),
    )
    .await;
    assert_error(&r, 403, "forbidden");
    let health = get_json(a, "/health").await;
    assert_eq!(health["access"]["ignored_role_headers"], 1, "{health}");
    assert_eq!(health["refused_writes"], 1, "{health}");
    h.shutdown().await;
}
