//! `envgen build` against a local stand-in speaking OpenAI chat completions (no model): the Plan
//! agent's spec has a miswired button, `envgen check` names it, the Dev agent's revision agrees,
//! and both rounds are stored.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use super::standin::{openai_text, Reply, StandIn};

const SPEC: &str = r#"[app]
name = "notes-mini"
title = "Notes"
category = "productivity"
description = "A tiny notes app."

[[entities]]
name = "notes"
label = "Note"
title = "title"
fields = [
  { name = "id", type = "id" },
  { name = "title", type = "string" },
  { name = "pinned", type = "bool", default = false },
]

[[views]]
name = "all"
kind = "list"
entity = "notes"
route = "/notes"
title = "Notes"
nav = "Notes"
open = "note"

[[views]]
name = "note"
kind = "detail"
entity = "notes"
route = "/note/{id}"
title = "Note"
actions = ["pin"]

[[actions]]
name = "pin"
label = "Pin"
entity = "notes"
effects = [{ op = "toggle", field = "pinned" }]
changes = ["notes.pinned"]
WIDGET
"#;

fn reply(widget: &str) -> Reply {
    let seed = json!({"notes": [
        {"id": "n1", "title": "Groceries", "pinned": false},
        {"id": "n2", "title": "Ideas", "pinned": true}
    ]});
    let answer = json!({"spec": SPEC.replace("WIDGET", widget), "seed": seed, "design": "One list, one page."});
    Reply::json(openai_text(&answer.to_string(), 100, 100))
}

#[test]
fn envgen_build_revises_the_spec_from_the_crawls_discrepancies_and_stores_every_round() {
    // Round 1 (Plan): the pin button always pins n2. Round 2 (Dev): no widget.
    let standin = StandIn::start(
        vec![
            reply(r#"widget = '<input type="hidden" name="_record" value="n2">'"#),
            reply(""),
        ],
        None,
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("notes_mini");
    let model = format!("openai:standin@{}/v1", standin.base);
    let o = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .args([
            "envgen",
            "build",
            "notes-mini",
            "--reference",
            "a notes app",
            "--model",
            &model,
            "--rounds",
            "3",
            "--json",
            "--out",
        ])
        .arg(&out)
        .current_dir(tmp.path())
        .env("OPENAI_API_KEY", "standin")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rounds: Value = serde_json::from_str(&stdout).unwrap();
    let rounds = rounds.as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{stdout}");
    assert_eq!(rounds[0]["agreed"], false);
    let d = &rounds[0]["discrepancies"][0];
    assert_eq!(d["element"], "note-pin-submit", "{stdout}");
    assert_eq!(d["observed"], json!(["notes[n2].pinned"]), "{stdout}");
    assert_eq!(rounds[1]["agreed"], true, "{stdout}");
    // Every round is stored; the agreed spec is compiled into the pack folder.
    for n in ["001", "002"] {
        let r = out.join("rounds").join(n);
        for f in ["app.spec.toml", "seed.json", "DESIGN.md", "round.json"] {
            assert!(r.join(f).is_file(), "{} stored", r.join(f).display());
        }
    }
    assert!(!std::fs::read_to_string(out.join("app.spec.toml"))
        .unwrap()
        .contains("widget"));
    for f in ["manifest.toml", "layout.json", "tasks.json", "SKILL.md"] {
        assert!(Path::new(&out.join(f)).is_file(), "{f} derived");
    }
    // The Dev agent was shown the discrepancy.
    let reqs = standin.requests();
    assert_eq!(reqs.len(), 2);
    let prompt = reqs[1].body["messages"].to_string();
    assert!(
        prompt.contains("note-pin-submit") && prompt.contains("notes[n2].pinned"),
        "{prompt}"
    );
}
