//! Every shipped instruction has exactly one target (issue 28): after a task's `initial_setup.py`
//! has run in the REAL app (embedded state server, REAL sandbox), the records its slots name — the
//! parent of a thread reply, the messages to react to, the records to update — are told apart from
//! every other record of their collection. A target is told apart when the instruction quotes its
//! key (`WEB-114`, `SPRING10`), or when no record outside the target set has the same describing
//! fields (a chat message: its text in that channel; a mail message: folder, sender and subject;
//! an issue: the columns of the issue list — project, type, summary, status, assignee, sprint; a
//! product: its title; …). A look-alike outside the set (three
//! identical "who owns the flaky checkout test?" messages and a reward accepting one) is an
//! instruction a person cannot carry out for sure.
//!
//! Cross-app tasks (two web apps, not sandboxable here) and file tasks (which name their paths)
//! are outside this check.

use crate::scripted_support;

use serde_json::Value;
use tuplewright::engine::agents::scripted::ScriptedConfig;
use tuplewright::engine::agents::TaskBrief;
use tuplewright::engine::sandbox::Role;

use scripted_support::*;

/// The describing fields of a record of `collection` in `app`: what an instruction would say of it.
fn describe(app: &str, collection: &str, r: &Value) -> Value {
    let pick = |fields: &[&str]| -> Value {
        Value::Array(
            fields
                .iter()
                .map(|f| r.pointer(f).cloned().unwrap_or(Value::Null))
                .collect(),
        )
    };
    if let Some(fields) = spec_list_fields(app, collection) {
        let ptrs: Vec<String> = fields.iter().map(|f| format!("/{f}")).collect();
        return pick(&ptrs.iter().map(String::as_str).collect::<Vec<_>>());
    }
    match (app, collection) {
        ("mail", "messages") => pick(&["/folder", "/from/email", "/subject"]),
        ("mail", "drafts") => pick(&["/subject"]),
        // The columns of the tracker's issue list.
        (_, "issues") => pick(&[
            "/projectId",
            "/type",
            "/summary",
            "/status",
            "/assignee",
            "/sprintId",
        ]),
        (_, "products") => pick(&["/title"]),
        (_, "customers") => pick(&["/firstName", "/lastName"]),
        (_, "users") if app == "team-chat" => pick(&["/displayName"]),
        (
            _,
            "contacts" | "labels" | "folders" | "channels" | "vendors" | "sprints" | "projects",
        ) => pick(&["/name"]),
        // Chat messages of one channel.
        ("team-chat", _) => pick(&["/text"]),
        _ => r.clone(),
    }
}

/// For a spec-built app, what its sidebar list of `collection` shows of a record, less the key
/// and the id (an instruction that does not quote a key cannot lean on it): the title field and
/// the list's columns (an issue of the spec-built tracker: summary, type, status, priority,
/// assignee, sprint — as the hand-written tracker's issue list).
fn spec_list_fields(app: &str, collection: &str) -> Option<Vec<String>> {
    use tuplewright::engine::envgen::{spec::ViewKind, Model};
    let text = tuplewright::apps::get(app)?.app.spec_text()?;
    let path = std::path::Path::new("app.spec.toml");
    let model = tuplewright::engine::envgen::parse(path, text)
        .map(Model::new)
        .ok()?;
    let entity = model.entity(collection)?;
    let key = entity.key.clone().unwrap_or_else(|| "id".into());
    let mut out = vec![Model::title_field(entity).to_string()];
    let list = model.views().find(|v| {
        v.nav.is_some()
            && v.filter.is_none()
            && v.entity.as_deref() == Some(collection)
            && matches!(v.kind, ViewKind::Table | ViewKind::List)
    });
    for f in list.map(|v| v.fields.clone()).unwrap_or_default() {
        if f != key && f != "id" && !out.contains(&f) {
            out.push(f);
        }
    }
    Some(out)
}

/// Where a task's targets are.
struct Targets {
    app: String,
    /// The collection (for chat messages, the channel id).
    collection: String,
    /// The field holding a record's key.
    field: String,
    /// Every record the targets are among.
    pool: Vec<Value>,
    /// The targets' keys.
    keys: Vec<String>,
}

/// The records task `b`'s slots point at, among the records of `state`.
fn targets(b: &TaskBrief, state: &Value) -> Option<Targets> {
    let slots = &b.structured["slots"];
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    match b.structured["template"].as_str()? {
        "thread_reply" | "add_reaction" => {
            let name = slots["channel"].as_str()?;
            let channel = state["channels"]
                .as_array()?
                .iter()
                .find(|c| c["name"] == name)?;
            let cid = channel["id"].as_str()?;
            let pool: Vec<Value> = state["messages"][cid]
                .as_array()?
                .iter()
                .filter(|m| m["threadTs"].is_null())
                .cloned()
                .collect();
            let keys = match slots.get("parent_id") {
                Some(p) => vec![p.as_str()?.to_string()],
                None => strings(&slots["message_ids"]),
            };
            Some(Targets {
                app: "team-chat".into(),
                collection: cid.into(),
                field: "id".into(),
                pool,
                keys,
            })
        }
        "update_records" => {
            let app = slots["app"].as_str()?.to_string();
            let collection = slots["collection"].as_str()?.to_string();
            let pool = state[collection.as_str()].as_array()?.clone();
            let keys = slots["keys"]
                .as_array()?
                .iter()
                .map(|k| k.as_str().map_or_else(|| k.to_string(), str::to_string))
                .collect();
            Some(Targets {
                app,
                collection,
                field: slots["key_field"].as_str()?.into(),
                pool,
                keys,
            })
        }
        _ => None,
    }
}

/// The key of record `r` as text.
fn key_of(r: &Value, field: &str) -> String {
    r[field]
        .as_str()
        .map_or_else(|| r[field].to_string(), str::to_string)
}

/// What is ambiguous about task `b` in `state` (empty = every target is told apart).
fn ambiguities(b: &TaskBrief, state: &Value) -> Vec<String> {
    let Some(Targets {
        app,
        collection,
        field,
        pool,
        keys,
    }) = targets(b, state)
    else {
        return vec![];
    };
    let mut out = Vec::new();
    for k in &keys {
        let found: Vec<&Value> = pool.iter().filter(|r| key_of(r, &field) == *k).collect();
        if found.len() != 1 {
            out.push(format!("{} records have {field} = {k}", found.len()));
            continue;
        }
        if b.instruction.contains(k.as_str()) {
            continue; // named by its key
        }
        let want = describe(&app, &collection, found[0]);
        let twins: Vec<String> = pool
            .iter()
            .filter(|r| !keys.contains(&key_of(r, &field)))
            .filter(|r| describe(&app, &collection, r) == want)
            .map(|r| key_of(r, &field))
            .collect();
        if !twins.is_empty() {
            out.push(format!("target {k} {want} has look-alikes {twins:?}"));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_shipped_instruction_has_exactly_one_target() {
    let h = Harness::start().await;
    let (g, _) = agents(ScriptedConfig {
        seed: 7,
        fault_rate: 0.0,
        fault_depth: 1,
        templates_dir: None,
    });
    let mut checked = 0;
    let mut failures = Vec::new();
    for (_, b) in shipped_tasks() {
        let apps = web_apps(&b);
        if apps.len() != 1 || !has_targets(&b) {
            continue;
        }
        let app = apps[0].clone();
        let gen = generate(&g, &b, 1, None);
        let env = h.endpoint(Some(&app));
        let run = h
            .run(&env, Role::Setup, "initial_setup.py", &gen.initial_setup)
            .await;
        assert!(
            run.succeeded(),
            "{}: setup failed: {}",
            b.task_id,
            run.stderr.text
        );
        let state = h
            .server
            .store(&app)
            .unwrap()
            .snapshot(&env.sid)
            .unwrap()
            .current
            .value()
            .unwrap();
        checked += 1;
        let found = ambiguities(&b, &state);
        if !found.is_empty() {
            failures.push(format!("{}: {}", b.task_id, found.join("; ")));
        }
    }
    assert!(checked >= 50, "only {checked} tasks checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether task `b`'s template points at existing records.
fn has_targets(b: &TaskBrief) -> bool {
    matches!(
        b.structured["template"].as_str(),
        Some("thread_reply" | "add_reaction" | "update_records")
    )
}

#[test]
fn the_check_finds_look_alikes_and_accepts_a_quoted_key() {
    let task = serde_json::json!({
        "task_id": "t", "task_instruction": "Answer the question about the flaky test in #eng.",
        "context": "", "difficulty": "easy", "domain": "team-chat", "domains": ["team-chat"],
        "template": "thread_reply",
        "slots": {"channel": "eng", "parent_id": "M2", "text": "x", "must_include": []}
    });
    let b = brief(&task);
    let msg = |id: &str, text: &str| serde_json::json!({"id": id, "text": text, "threadTs": null});
    let mut state = serde_json::json!({
        "channels": [{"id": "C1", "name": "eng"}],
        "messages": {"C1": [msg("M1", "hi"), msg("M2", "Who owns the flaky test?"),
                            msg("M3", "Who owns the flaky test?")]}
    });
    let found = ambiguities(&b, &state);
    assert!(found.len() == 1 && found[0].contains("M3"), "{found:?}");
    state["messages"]["C1"][2]["text"] = "Something else".into();
    assert!(ambiguities(&b, &state).is_empty());
    // An update of an issue the instruction names by key needs no unique summary.
    let task = serde_json::json!({
        "task_id": "u", "task_instruction": "Move WEB-2 to Done.", "context": "",
        "difficulty": "easy", "domain": "issue-tracker", "domains": ["issue-tracker"],
        "template": "update_records",
        "slots": {"app": "issue-tracker", "collection": "issues", "key_field": "key",
                  "keys": ["WEB-2"], "changes": {"status": "Done"}}
    });
    let issue = |k: &str| serde_json::json!({"key": k, "projectId": "p1", "type": "bug", "summary": "Crash"});
    let state = serde_json::json!({"issues": [issue("WEB-1"), issue("WEB-2")]});
    assert!(ambiguities(&brief(&task), &state).is_empty());
    let state = serde_json::json!({"issues": [issue("WEB-2"), issue("WEB-2")]});
    assert_eq!(ambiguities(&brief(&task), &state).len(), 1);
}
