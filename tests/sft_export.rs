//! Teacher-free training data (issue #36): ui-oracle trials of a shipped task, rolled out on a
//! real screen (Xvfb + Chromium from .ci/setup), export as SFT conversations in a policy's wire
//! whose tool calls read back — with the policy's own parser — as the stored actions; and
//! `--thoughts` asks a stand-in VLM speaking OpenAI chat completions for each turn's thought,
//! shown the frames before and after it.

use crate::providers::standin;
use crate::shipped_support;

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

/// `xdotool ARGS` on `display` (XTEST, as a VNC server injects a person's input); its stdout.
fn xdotool(display: &str, args: &[&str]) -> String {
    let out = std::process::Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool (.ci/setup)");
    assert!(out.status.success(), "xdotool {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Kills an `env try` that did not end (a failed assertion) once its done file is written.
struct Child(std::process::Child, std::path::PathBuf);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.1, "");
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_persons_env_try_is_recorded_as_actions_and_exports_as_sft_that_reads_back_as_them() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let id = "files_sort_001";
    let store = store_of(dir.path(), "files.json", id);
    let until = dir.path().join("done");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args(["--no-tui", "--store"])
        .arg(&store)
        .args(["env", "try", id, "--json", "--until"])
        .arg(&until)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut child = Child(child, until.clone());
    let mut lines = std::io::BufReader::new(child.0.stdout.take().unwrap()).lines();
    let access: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let display = access["display"].as_str().unwrap().to_string();
    // The person: clicks into the terminal, types the command that does the task, Return.
    let term = xdotool(&display, &["search", "--sync", "--name", "^Terminal$"]);
    xdotool(&display, &["windowactivate", "--sync", &term]);
    xdotool(
        &display,
        &["mousemove", "--window", &term, "300", "100", "click", "1"],
    );
    let at = xdotool(&display, &["getmouselocation", "--shell"]);
    let coord = |k: &str| -> i32 {
        let line = at.lines().find(|l| l.starts_with(k)).unwrap();
        line[k.len()..].parse().unwrap()
    };
    let click = A::LeftClick {
        x: coord("X="),
        y: coord("Y="),
    };
    let task = shipped_support::shipped_task("files.json", id);
    let command =
        tuplewright::apps::files::planner::files_command("move_files", &task["slots"]).unwrap();
    let text = format!("{command} && printf '\\033]2;%s\\007' person-done");
    xdotool(&display, &["type", "--delay", "2", &text]);
    xdotool(&display, &["key", "Return"]);
    xdotool(&display, &["search", "--sync", "--name", "^person-done$"]);
    std::fs::write(&until, "").unwrap();
    let result: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert!(child.0.wait().unwrap().success(), "{result}");
    assert_eq!(result["reward"], 1.0, "{result}");

    // Stored: the first observation, then the person's actions, each ending with a frame.
    let s = Store::open_readonly(&store, Duration::from_secs(5)).unwrap();
    let stored = s.trial_steps(s.rollout_ids(id).unwrap()[0]).unwrap();
    let shot = stored[0].screenshot.clone().unwrap();
    let recorded: Vec<A> = stored[1..]
        .iter()
        .map(|st| serde_json::from_value(st.action.clone()).unwrap())
        .collect();
    let key = A::Key {
        key: "Return".into(),
    };
    assert_eq!(recorded, vec![click, A::Type { text }, key]);
    assert!(stored.last().unwrap().screenshot.is_some());

    let export = dir.path().join("sft");
    let (code, out, err) = tw(
        &store,
        &[
            "export-trajectories",
            "--format",
            "sft",
            "--wire",
            "qwen-xml",
            "--out",
            export.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["records"], 1, "{summary}");
    let rec = &jsonl(&export.join("sft.jsonl"))[0];
    assert_eq!(rec["source"], "human", "{rec}");
    let wire: WireFormat = "qwen-xml".parse().unwrap();
    let coords = Coords::new(wire.default_space(), shot.width, shot.height).unwrap();
    let mut back = read_back(rec, wire, &coords);
    assert_eq!(back.pop(), Some(A::Terminate { success: true }));
    let want: Vec<A> = recorded.iter().map(|a| snap(a, &coords)).collect();
    assert_eq!(back, want);
}
