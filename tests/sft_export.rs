//! Teacher-free training data (issue #36): ui-oracle trials of a shipped task, rolled out on a
//! real screen (Xvfb + Chromium from .ci/setup), export as SFT conversations in a policy's wire
//! whose tool calls read back — with the policy's own parser — as the stored actions; and
//! `--thoughts` asks a stand-in VLM speaking OpenAI chat completions for each turn's thought,
//! shown the frames before and after it.

mod shipped_support;
#[allow(dead_code)]
#[path = "providers/standin.rs"]
mod standin;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use shipped_support::{store_of, tw};
use standin::{openai_text, Recorded, Reply, StandIn};
use tuplewright::engine::rollout::export::wire::snap;
use tuplewright::engine::rollout::export::WireFormat;
use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::trial::record_steps;
use tuplewright::engine::rollout::ui_plan::Step;
use tuplewright::engine::rollout::vlm::Coords;
use tuplewright::engine::store::{Labels, Rollout, Store, TaskRecord};

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The actions of every assistant turn of `rec`, read back by `wire`'s parser.
fn read_back(rec: &Value, wire: WireFormat, coords: &Coords) -> Vec<A> {
    rec["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .flat_map(|m| wire.parse(&m["content"], coords).unwrap())
        .collect()
}

#[test]
fn ui_oracle_trials_of_a_shipped_task_export_as_sft_whose_tool_calls_read_back_as_the_steps() {
    let dir = tempfile::tempdir().unwrap();
    let id = "teamchat_topic_001";
    let store = store_of(dir.path(), "team-chat.json", id);
    let (code, out, err) = tw(
        &store,
        &[
            "rollout",
            "--policy",
            "ui-oracle",
            "--trials",
            "2",
            "--json",
        ],
    );
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let s = Store::open_readonly(&store, Duration::from_secs(5)).unwrap();
    let rid = s.rollout_ids(id).unwrap()[0];
    let stored = s.trial_steps(rid).unwrap();
    let shot = stored[0].screenshot.clone().unwrap();
    let recorded: Vec<A> = stored[1..]
        .iter()
        .map(|st| serde_json::from_value(st.action.clone()).unwrap())
        .collect();
    assert!(recorded.len() >= 3, "{recorded:?}");

    for wire in ["qwen-xml", "anthropic"] {
        let export = dir.path().join(wire);
        let (code, out, err) = tw(
            &store,
            &[
                "export-trajectories",
                "--format",
                "sft",
                "--wire",
                wire,
                "--out",
                export.to_str().unwrap(),
                "--json",
            ],
        );
        assert_eq!(code, 0, "{out}\n{err}");
        let summary: Value = serde_json::from_str(&out).unwrap();
        // The two ui-oracle trials did the same: the second is a duplicate.
        assert_eq!(summary["records"], 1, "{summary}");
        assert!(
            summary["skipped"][0]
                .as_str()
                .unwrap()
                .contains("the same actions as trial 1"),
            "{summary}"
        );
        let rec = &jsonl(&export.join("sft.jsonl"))[0];
        assert_eq!(
            (rec["source"].as_str(), rec["wire"].as_str()),
            (Some("ui-oracle"), Some(wire))
        );
        // The first user message shows the first observation, a file of the export.
        let url = rec["messages"][1]["content"][1]["image_url"]["url"]
            .as_str()
            .unwrap();
        assert_eq!(url, format!("images/{}.png", shot.sha256));
        assert!(export.join(url).is_file());
        assert!(summary["images"].as_u64().unwrap() >= 2, "{summary}");
        // Every tool call read back by the policy's parser: the stored actions (in 0–999 the
        // points the space names), then terminate.
        let wire: WireFormat = wire.parse().unwrap();
        let coords = Coords::new(wire.default_space(), shot.width, shot.height).unwrap();
        let mut back = read_back(rec, wire, &coords);
        assert_eq!(back.pop(), Some(A::Terminate { success: true }));
        let want: Vec<A> = recorded.iter().map(|a| snap(a, &coords)).collect();
        assert_eq!(back, want, "{wire}");
        if wire == WireFormat::Anthropic {
            assert_eq!(back, recorded, "screen pixels: exactly the stored actions");
        }
    }
}

/// A frame of 1280×800, one colour per seed.
fn frame(seed: u8) -> Vec<u8> {
    let mut out = Vec::new();
    image::RgbImage::from_pixel(1280, 800, image::Rgb([seed, 90, 200 - seed]))
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

/// A store with one ui-oracle trial: the first observation, a click, typing, Enter.
fn oracle_store(path: &Path) {
    let mut store = Store::open(path, Duration::from_secs(5)).unwrap();
    let task = TaskRecord {
        task_id: "teamchat_topic_001".into(),
        instruction: "Set the topic of #design.".into(),
        context: String::new(),
        labels: Labels::default(),
        app_type: None,
        original_json: json!({}),
        origin: "test".into(),
    };
    store.write(|tx| tx.upsert_task(&task)).unwrap();
    let actions = [
        A::Screenshot,
        A::LeftClick { x: 320, y: 200 },
        A::Type {
            text: "Launch".into(),
        },
        A::Key {
            key: "Return".into(),
        },
    ];
    let steps: Vec<Step> = actions
        .iter()
        .enumerate()
        .map(|(i, a)| Step {
            action: a.clone(),
            at_ms: 10 * i as u64,
            duration_ms: 1,
            error: None,
            settle_ms: Some(1),
            screenshot_png: Some(frame(i as u8 * 40)),
        })
        .collect();
    let rec = Rollout {
        task_id: task.task_id.clone(),
        model: "ui-oracle".into(),
        trial: 1,
        reward: Some(1.0),
        judge_verdict: None,
        failure: None,
        detail: json!({"actions": [], "duration_ms": 50}),
        created_at: None,
    };
    store
        .write(|tx| {
            let id = tx.record_rollout(&rec)?;
            record_steps(tx, id, &steps)
        })
        .unwrap();
}

fn images_in(r: &Recorded) -> usize {
    r.body["messages"][1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == "image_url")
        .count()
}

#[test]
fn thoughts_come_from_a_stand_in_vlm_shown_the_frames_around_each_turn() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.db");
    oracle_store(&store);
    let model = StandIn::responding(Arc::new(|r: &Recorded| {
        Reply::json(openai_text(
            &format!("I look at {} frame(s) and act.\n", images_in(r)),
            100,
            10,
        ))
    }));
    let spec = format!("vlm:openai:thinker@{}/v1", model.base);
    let export = dir.path().join("sft");
    let (code, out, err) = tw(
        &store,
        &[
            "export-trajectories",
            "--format",
            "sft",
            "--wire",
            "uitars",
            "--thoughts",
            &spec,
            "--out",
            export.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    // Turns: the click; typing and Enter (one keyboard chain); terminate.
    let requests = model.requests();
    assert_eq!(requests.len(), 3, "one request per turn");
    let frames: Vec<usize> = requests.iter().map(images_in).collect();
    assert_eq!(
        frames,
        [2, 2, 1],
        "before and after; the closing turn sees the final screen"
    );
    let first = &requests[0].body;
    assert_eq!(first["model"], "thinker");
    assert!(first["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("brief reasoning"));
    let text = first["messages"][1]["content"].to_string();
    assert!(
        text.contains("Set the topic of #design.") && text.contains("left_click"),
        "{text}"
    );
    let rec = &jsonl(&export.join("sft.jsonl"))[0];
    assert_eq!(rec["thoughts"], spec.as_str());
    let replies: Vec<&str> = rec["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(
        replies[0].starts_with("Thought: I look at 2 frame(s) and act.\nAction: click("),
        "{replies:?}"
    );
    assert!(replies[2].starts_with("Thought: I look at 1 frame(s) and act.\nAction: finished("));
    let coords = Coords::new(
        WireFormat::Text(tuplewright::engine::rollout::vlm::ActionFormat::Uitars).default_space(),
        1280,
        800,
    )
    .unwrap();
    let back = read_back(rec, "uitars".parse().unwrap(), &coords);
    assert_eq!(back.len(), 4, "{back:?}");
}
