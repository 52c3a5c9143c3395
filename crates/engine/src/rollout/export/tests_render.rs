//! Trials without model text (a ui-oracle trial stored through the real store API: its first
//! observation, then one step per action with its after-frame) exported as SFT in every wire:
//! the batching, the frames, the closing terminate and — the round trip — every assistant turn
//! read back by the policy's own parser gives the recorded actions and coordinates; then the
//! filters (success only, dedup, trials per task, sources, domains) and what cannot be rendered.

use std::path::Path;

use serde_json::{json, Value};

use super::tests::{lines, new_store, opts, TASK};
use super::*;
use crate::rollout::screen::ComputerAction as A;
use crate::rollout::trial::record_steps;
use crate::rollout::ui_plan::Step;
use crate::rollout::vlm::{ActionFormat, CoordSpace, Coords};
use tuplewright_base::store::Rollout;

/// A 1280×800 frame, one colour per seed.
fn frame(seed: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let px = image::Rgb([(seed * 37 % 256) as u8, (seed * 91 % 256) as u8, 40]);
    image::RgbImage::from_pixel(1280, 800, px)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap_or_default();
    out
}

/// A trial of `policy` as the executor stores it: the first observation (frame `seed`), then
/// each action with its after-frame (`seed + i + 1`).
fn store_screen_trial(store: &mut Store, policy: &str, trial: i64, reward: f64, actions: &[A]) {
    let seed = trial as u32 * 100;
    let shot = |n: u32| Step {
        action: A::Screenshot,
        at_ms: 3,
        duration_ms: 1,
        error: None,
        settle_ms: Some(2),
        screenshot_png: Some(frame(n)),
    };
    let mut steps = vec![shot(seed)];
    for (i, a) in actions.iter().enumerate() {
        steps.push(Step {
            action: a.clone(),
            at_ms: 10 * (i as u64 + 1),
            ..shot(seed + i as u32 + 1)
        });
    }
    let rec = Rollout {
        task_id: TASK.into(),
        model: policy.into(),
        trial,
        reward: Some(reward),
        judge_verdict: None,
        failure: None,
        detail: json!({"actions": [], "duration_ms": 900}),
        created_at: None,
    };
    let _ = store.write(|tx| {
        let id = tx.record_rollout(&rec)?;
        record_steps(tx, id, &steps)
    });
}

/// Every kind of action the five wires share, at points every space names exactly on 1280×800.
fn actions() -> Vec<A> {
    vec![
        A::LeftClick { x: 320, y: 200 },
        A::DoubleClick { x: 640, y: 400 },
        A::Key {
            key: "ctrl+a".into(),
        },
        A::Type {
            text: "Q3 \"launch\" notes".into(),
        },
        A::Key {
            key: "Return".into(),
        },
        A::MouseMove { x: 960, y: 600 },
        A::Scroll {
            x: 960,
            y: 600,
            amount: 5,
        },
        A::LeftClickDrag {
            x: 320,
            y: 200,
            to_x: 640,
            to_y: 400,
        },
        A::RightClick { x: 32, y: 40 },
    ]
}

fn export(store: &Store, out: &Path, wire: WireFormat) -> ExportSummary {
    let t = TokenCounter::Estimate;
    let mut o = opts(Format::Sft, out, &t);
    o.render.wire = wire;
    export_trajectories(store, &o).expect("export")
}

fn images_of(m: &Value) -> Vec<String> {
    m["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["image_url"]["url"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_ui_oracle_trial_reads_back_exactly_in_every_wire() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = new_store(dir.path());
    store_screen_trial(&mut store, "ui-oracle", 1, 1.0, &actions());
    let want: Vec<Value> = actions()
        .iter()
        .map(|a| serde_json::to_value(a).unwrap_or_default())
        .collect();
    for wire in WireFormat::ALL {
        let out = dir.path().join(wire.name());
        let s = export(&store, &out, wire);
        assert_eq!((s.trials, s.records), (1, 1), "{wire}: {:?}", s.skipped);
        assert_eq!((s.max_snap_px, s.sources["ui-oracle"]), (0, 1), "{wire}");
        let rec = &lines(&out.join("sft.jsonl"))[0];
        assert_eq!(
            (rec["source"].as_str(), rec["wire"].as_str()),
            (Some("ui-oracle"), Some(wire.name()))
        );
        let c = &rec["coords"];
        let space: CoordSpace = c["space"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .expect("space");
        assert_eq!(space, wire.default_space(), "{wire}");
        let coords = Coords::new(space, 1280, 800).expect("coords");
        let msgs = rec["messages"].as_array().cloned().unwrap_or_default();
        let turns: Vec<&Value> = msgs.iter().filter(|m| m["role"] == "assistant").collect();
        // click | double click | ctrl+a, type, Enter | move, scroll | drag | right click | end.
        let sizes: Vec<usize> = turns
            .iter()
            .map(|m| {
                wire.parse(&m["content"], &coords)
                    .map(|a| a.len())
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(sizes, [1, 1, 3, 2, 1, 1, 1], "{wire}: {turns:?}");
        // The round trip: every turn parsed back by the policy's parser, in order, is the
        // recorded actions and coordinates, then a successful terminate.
        let mut back = Vec::new();
        for m in &turns {
            for a in wire.parse(&m["content"], &coords).expect("parses") {
                back.push(serde_json::to_value(a).unwrap_or_default());
            }
        }
        let end = back.pop();
        assert_eq!(back, want, "{wire}");
        assert_eq!(
            end,
            Some(json!({"action": "terminate", "success": true})),
            "{wire}"
        );
        // The first user message has the instruction and the first observation; each later
        // one the frame after the previous turn's last action (the batch's inner frames are
        // never shown), so seven screenshots in all.
        let users: Vec<&Value> = msgs.iter().filter(|m| m["role"] == "user").collect();
        let shots: Vec<Vec<String>> = users.iter().map(|m| images_of(m)).collect();
        assert!(shots.iter().all(|s| s.len() == 1), "{wire}: {shots:?}");
        let store_sha = |n: u32| {
            let png = frame(n);
            format!(
                "images/{}.png",
                tuplewright_base::store::sha256_of_bytes(&png)
            )
        };
        assert_eq!(shots[0][0], store_sha(100));
        assert_eq!(shots[3][0], store_sha(105), "after Enter, not after typing");
        assert_eq!(
            shots[6][0],
            store_sha(109),
            "the final screen before terminate"
        );
        assert!(out.join(&shots[6][0]).exists());
        assert_eq!(s.images, 7);
        assert_eq!(
            msgs[0]["role"] == "system",
            wire != WireFormat::OpenaiComputer
        );
        assert!(rec["thoughts"].is_null(), "no invented text");
    }
}

#[test]
fn a_space_that_cannot_name_every_pixel_snaps_within_one_and_says_so() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = new_store(dir.path());
    // 0–999 on 1280×800: x = 2 is 1.5625 thousandths, written 2, read back as pixel 3 (y = 2
    // is 2.5, written 3, read back as 2).
    store_screen_trial(
        &mut store,
        "ui-oracle",
        1,
        1.0,
        &[A::LeftClick { x: 2, y: 2 }],
    );
    let out = dir.path().join("x");
    let s = export(&store, &out, WireFormat::Text(ActionFormat::QwenXml));
    assert_eq!((s.records, s.max_snap_px), (1, 1));
    let rec = &lines(&out.join("sft.jsonl"))[0];
    let reply = rec["messages"][2]["content"].as_str().unwrap_or_default();
    assert!(reply.contains("\n[2,3]\n"), "{reply}");
    assert_eq!(
        rec["turn_actions"][0][0],
        json!({"action": "left_click", "x": 2, "y": 2})
    );
}

#[test]
fn filters_keep_successes_drop_duplicates_cap_per_task_and_report_domains() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = new_store(dir.path());
    let other = [A::LeftClick { x: 64, y: 80 }];
    store_screen_trial(&mut store, "ui-oracle", 1, 1.0, &actions());
    store_screen_trial(&mut store, "ui-oracle", 2, 1.0, &actions());
    store_screen_trial(&mut store, "ui-oracle", 3, 0.0, &other);
    store_screen_trial(&mut store, "ui-oracle", 4, 1.0, &other);
    store_screen_trial(&mut store, "human", 5, 1.0, &[]);
    let t = TokenCounter::Estimate;
    let out = dir.path().join("sft");
    let s = export_trajectories(&store, &opts(Format::Sft, &out, &t)).expect("export");
    assert_eq!(s.trials, 2, "{:?}", s.skipped);
    let why = s.skipped.join("\n");
    assert!(
        why.contains("trial 2 (ui-oracle): the same actions as trial 1"),
        "{why}"
    );
    assert!(
        why.contains("trial 3 (ui-oracle): reward 0 below 1"),
        "{why}"
    );
    assert!(
        why.contains("trial 5 (human): no recorded screen actions"),
        "{why}"
    );
    assert_eq!(s.domains["teamchat"]["trials"], 2);
    assert_eq!(s.domains["teamchat"]["share_percent"], 100.0);
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    assert_eq!(manifest["domains"]["teamchat"]["records"], 2);
    // One per task; only model trials (there are none); duplicates kept.
    let mut o = opts(Format::Sft, &out, &t);
    o.trials_per_task = Some(1);
    assert_eq!(export_trajectories(&store, &o).expect("cap").trials, 1);
    let model = ["model".to_string()];
    let mut o = opts(Format::Sft, &out, &t);
    o.sources = &model;
    assert_eq!(export_trajectories(&store, &o).expect("model").trials, 0);
    let mut o = opts(Format::Sliced, &out, &t);
    o.dedup = false;
    let s = export_trajectories(&store, &o).expect("sliced");
    assert_eq!(
        s.trials, 4,
        "RL slices keep failures and, asked, duplicates"
    );
    let slices = lines(&out.join("slices.jsonl"));
    assert!(slices
        .iter()
        .all(|r| r["source"] == "ui-oracle" && r["dummy"] == false));
}

#[test]
fn an_action_a_wire_cannot_say_leaves_the_trial_out_with_the_reason() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = new_store(dir.path());
    store_screen_trial(
        &mut store,
        "ui-oracle",
        1,
        1.0,
        &[A::TripleClick { x: 64, y: 80 }],
    );
    store_screen_trial(
        &mut store,
        "ui-oracle",
        2,
        1.0,
        &[A::Scroll {
            x: 64,
            y: 80,
            amount: 3,
        }],
    );
    let out = dir.path().join("o");
    let s = export(&store, &out, WireFormat::OpenaiComputer);
    assert_eq!(s.trials, 1, "the scroll has a form, the triple click none");
    assert!(
        s.skipped[0].contains("the computer_use_preview tool has no form for"),
        "{:?}",
        s.skipped
    );
    let s = export(&store, &out, WireFormat::Text(ActionFormat::Uitars));
    assert_eq!(s.trials, 1, "UI-TARS scrolls by 5 clicks only");
    assert!(
        s.skipped[0].contains("uitars cannot say turn 1 exactly"),
        "{:?}",
        s.skipped
    );
}
