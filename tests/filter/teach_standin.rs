//! A stand-in teacher solving a shipped team-chat task through its real web UI, end to end in
//! CI: the tuple is built by the real loop (`tuplewright run`), the VLM policy drives Chromium on
//! the app's agent-facing origin (`TaskScreen` → `WebScreen`) over a real wire (chat completions
//! with image parts and `qwen-xml`; the Anthropic Messages computer tool), every step is stored
//! with its screenshot, reward.py scores the final state, a judge on screenshots (chat
//! completions; Responses) is shown the trial's last screenshots, and A.4.2 decides (kept;
//! queued for a human on a disagreement). Models and judges are local stand-ins speaking the
//! real wire formats; the stand-in teacher finds targets on the page itself ([`crate::filter::solver`]).

use std::sync::Arc;

use base64::Engine as _;
use serde_json::{json, Value};
use sha2::Digest as _;
use tuplewright::engine::filter::{apply, Action, DecisionRequest};
use tuplewright::engine::rollout::inclusion::Inclusion;
use tuplewright::engine::rollout::rollout_task;
use tuplewright::engine::rollout::stage::{Conclusion, StageOptions, TaskRollouts};
use tuplewright::engine::rollout::vlm::judge::ScreenJudge;
use tuplewright::engine::rollout::vlm::{args::to_args, wire_from_spec, ActionFormat, VlmPolicy};
use tuplewright::engine::store::DecisionSource;

use crate::filter::rig::{rig_on, Rig};
use crate::filter::solver::{Mode, Solver, Watched};
use crate::filter::standin::{
    anthropic_text, anthropic_tools, openai_text, Recorded, Reply, StandIn,
};
use crate::shipped_support::store_of;
use crate::vlm_support::fast_config;

const TASK: &str = "teamchat_topic_001";

/// The shipped task built by the loop, kept by a person (status `voted`).
fn voted_rig() -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let db = store_of(dir.path(), "team-chat.json", TASK);
    let r = rig_on(dir, db);
    apply(
        &mut r.store(),
        &DecisionRequest {
            task_id: TASK,
            action: Action::Keep,
            actor: "tester",
            source: DecisionSource::Human,
            reason: "fine",
            aggregate: None,
        },
    )
    .unwrap();
    assert_eq!(r.status(TASK), "voted");
    r
}

fn verdict(score: f64) -> String {
    json!({"checklist": [{"item": "topic set", "met": score > 0.5, "evidence": "the header"}],
        "score": score, "reasoning": format!("stand-in verdict {score}")})
    .to_string()
}

/// Runs the stage with `policy_spec`'s wire on the task's own screen watched by `solver`.
fn roll(
    r: &Rig,
    policy_spec: &str,
    solver: &Arc<Solver>,
    judge: &ScreenJudge,
    trials: u32,
) -> TaskRollouts {
    let cfg = fast_config();
    let wire = wire_from_spec(policy_spec, &cfg).expect("wire");
    let policy = VlmPolicy::new(
        wire,
        cfg.limits(),
        Arc::new(Watched {
            solver: solver.clone(),
        }),
    );
    let opts = StageOptions {
        trials,
        delta: 0.25,
        trivial_keep_fraction: 0.0,
        judge: Some(judge),
        refine: false,
    };
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, TASK, &policy, &opts))
        .expect("stage");
    assert!(
        solver.misses.lock().unwrap().is_empty(),
        "the stand-in found every target: {:?}",
        solver.misses.lock().unwrap()
    );
    out
}

/// sha256 of every image the judge request carried, in order (data URLs or bare base64).
fn image_hashes(req: &Recorded) -> Vec<String> {
    let mut out = Vec::new();
    collect_images(&req.body, &mut out);
    out.iter()
        .map(|b64| {
            let b64 = b64.strip_prefix("data:image/png;base64,").unwrap_or(b64);
            let png = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .expect("base64");
            hex::encode(sha2::Sha256::digest(&png))
        })
        .collect()
}

fn collect_images(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("url" | "image_url" | "data", Value::String(s)) if s.len() > 200 => {
                        out.push(s.clone())
                    }
                    _ => collect_images(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_images(x, out)),
        _ => {}
    }
}

/// The sha256 of the last `n` stored screenshots of the trial, oldest first.
fn last_shots(r: &Rig, rollout_id: i64, n: usize) -> Vec<String> {
    let steps = r.store().trial_steps(rollout_id).unwrap();
    let shots: Vec<String> = steps
        .iter()
        .filter_map(|s| s.screenshot.as_ref().map(|x| x.sha256.clone()))
        .collect();
    shots[shots.len().saturating_sub(n)..].to_vec()
}

#[test]
fn a_chat_qwen_xml_standin_teacher_solves_a_shipped_team_chat_task_on_its_ui_and_a_screen_judge_standin_keeps_it(
) {
    let r = voted_rig();
    let cfg = fast_config();
    let coords = wire_from_spec("vlm:openai:cua-gym-standin@http://127.0.0.1:9/v1", &cfg)
        .unwrap()
        .coords(1280, 800)
        .unwrap();
    let solver = Solver::new(&[Mode::GiveUp, Mode::Solve]);
    let s2 = solver.clone();
    let model = StandIn::responding(Arc::new(move |_req: &Recorded| {
        let text = ActionFormat::QwenXml.render("I look at the page.", &s2.next_actions(), &coords);
        Reply::json(openai_text(&text, 1500, 60))
    }));
    let judge_api = StandIn::start(
        vec![
            Reply::json(openai_text(&verdict(0.0), 900, 40)),
            Reply::json(openai_text(&verdict(1.0), 900, 40)),
        ],
        None,
    );
    let judge = ScreenJudge::from_spec(
        &format!("vlm:openai:judge-standin@{}/v1", judge_api.base),
        2,
        &cfg.provider_defaults(),
        &crate::filter::prompts(),
    )
    .unwrap();
    let out = roll(
        &r,
        &format!("vlm:openai:cua-gym-standin@{}/v1", model.base),
        &solver,
        &judge,
        2,
    );

    // Trial 1 gave up (0.0), trial 2 solved the task through the UI (1.0); the judge agreed.
    let rewards: Vec<_> = out.trials.iter().map(|t| (t.reward, t.judge)).collect();
    assert_eq!(
        rewards,
        [(Some(0.0), Some(0.0)), (Some(1.0), Some(1.0))],
        "{out:?}"
    );
    match &out.conclusion {
        Conclusion::Teacher {
            classified,
            decision,
            ..
        } => {
            assert_eq!(classified.inclusion, Inclusion::Accepted);
            assert_eq!(decision.as_ref().unwrap().after, "final");
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(r.status(TASK), "final", "A.4.2 kept the tuple");

    // The solving trial: clicks and typing only, each step stored with its screenshot.
    let solved = &out.trials[1];
    assert!(solved.steps.len() >= 4, "{:?}", solved.steps);
    let kinds: Vec<&str> = solved
        .steps
        .iter()
        .map(|s| s.action["action"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"left_click") && kinds.contains(&"type"),
        "{kinds:?}"
    );
    assert_eq!(kinds.last(), Some(&"terminate"));
    // The teacher's requests carried screenshots as image parts, and its replies are stored;
    // the screenshot after each turn's last action (the model's next observation) is stored.
    let first = &model.requests()[0].body;
    assert_eq!(first["messages"][1]["content"][1]["type"], "image_url");
    let stored = r.store().rollouts(TASK).unwrap();
    let turns = stored[1].detail["actions"].as_array().unwrap();
    let shots = solved
        .steps
        .iter()
        .filter(|s| s.screenshot.is_some())
        .count();
    assert_eq!(
        solved.steps[0].action["action"], "screenshot",
        "the first look"
    );
    assert_eq!(
        shots,
        turns.len(),
        "the first look, then one per turn but the last (terminate)"
    );
    assert!(
        turns
            .iter()
            .any(|t| t["actions"].as_array().map(Vec::len) == Some(3)),
        "a fill is three functions in one turn: {turns:?}"
    );
    assert!(turns[0]["reply"]
        .as_str()
        .unwrap()
        .contains("<function=computer_use>"));

    // The judge saw the instruction and the trial's last two screenshots, the final one last.
    let reqs = judge_api.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1].path, "/v1/chat/completions");
    let prompt = reqs[1].body["messages"][1]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        prompt.contains("## Instruction") && prompt.contains("## Screenshots"),
        "{prompt}"
    );
    assert!(!prompt.contains("## Final state"), "screens, not the state");
    assert_eq!(
        image_hashes(&reqs[1]),
        last_shots(&r, solved.rollout_id, 2),
        "the judge's images are the stored final screenshots"
    );
    assert_eq!(stored[1].detail["judge"]["screenshots"], 2);
    assert_eq!(stored[1].judge_verdict.as_deref(), Some("1.0000"));
    let judged: i64 = r
        .store()
        .conn()
        .query_row(
            "SELECT COUNT(*) FROM usage WHERE stage = 'judge' AND task_id = ?1",
            [TASK],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(judged, 2, "one judge usage row per trial");

    // The trials as training data, through the CLI: OSWorld folders read back, SFT success-only.
    let exp = tempfile::tempdir().unwrap();
    let osw = exp.path().join("osw");
    let (code, _, err) = crate::shipped_support::tw(
        &r.db,
        &[
            "export-trajectories",
            "--format",
            "osworld",
            "--out",
            osw.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let base = osw.join("vlm_openai_cua-gym-standin").join(TASK);
    let dir = base.join(format!("trial_2_{}", solved.rollout_id));
    let traj: Vec<Value> = std::fs::read_to_string(dir.join("traj.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        traj.len(),
        solved.steps.len() - 1,
        "every action but the first look"
    );
    assert!(traj[0]["response"]
        .as_str()
        .unwrap()
        .contains("<function=computer_use>"));
    assert_eq!(traj.last().unwrap()["done"], true);
    for line in &traj {
        if let Some(f) = line["screenshot_file"].as_str() {
            assert!(dir.join(f).exists(), "{f}");
        }
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("result.txt")).unwrap(),
        "1.0\n"
    );
    let failed = base.join(format!("trial_1_{}", out.trials[0].rollout_id));
    assert_eq!(
        std::fs::read_to_string(failed.join("result.txt")).unwrap(),
        "0.0\n"
    );
    let sft = exp.path().join("sft");
    let (code, _, err) = crate::shipped_support::tw(
        &r.db,
        &[
            "export-trajectories",
            "--format",
            "sft",
            "--out",
            sft.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = std::fs::read_to_string(sft.join("sft.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1, "success only");
    let m = &rows[0]["messages"];
    assert_eq!(m[0]["role"], "system");
    assert!(m[0]["content"].as_str().unwrap().contains("computer_use"));
    assert_eq!(m[1]["content"][1]["type"], "image_url");
    assert_eq!(m[2]["content"], turns[0]["reply"]);
}

#[test]
fn an_anthropic_standin_teacher_solves_it_and_a_responses_judge_standin_that_disagrees_queues_it_for_a_human(
) {
    let r = voted_rig();
    let cfg = fast_config();
    let pixels = wire_from_spec("anthropic:claude-standin@http://127.0.0.1:9", &cfg)
        .unwrap()
        .coords(1280, 800)
        .unwrap();
    let solver = Solver::new(&[Mode::Solve]);
    let s2 = solver.clone();
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let model = StandIn::responding(Arc::new(move |_req: &Recorded| {
        let actions = s2.next_actions();
        if actions
            == [tuplewright::engine::rollout::screen::ComputerAction::Terminate { success: true }]
        {
            // The Messages API has no terminate: a turn without a tool call ends the episode.
            return Reply::json(anthropic_text("The topic is set.", 2000, 20));
        }
        let uses: Vec<(String, &str, Value)> = actions
            .iter()
            .map(|a| {
                let n = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                (format!("toolu_{n}"), "computer", to_args(a, &pixels))
            })
            .collect();
        let uses: Vec<(&str, &str, Value)> = uses
            .iter()
            .map(|(i, n, v)| (i.as_str(), *n, v.clone()))
            .collect();
        Reply::json(anthropic_tools(&uses, 2000, 50))
    }));
    let judge_api = StandIn::start(
        vec![Reply::json(json!({
            "id": "resp_1", "object": "response", "status": "completed",
            "output": [{"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": verdict(0.0)}]}],
            "usage": {"input_tokens": 800, "output_tokens": 30}
        }))],
        None,
    );
    let judge = ScreenJudge::from_spec(
        &format!("openai-responses:judge-standin@{}/v1", judge_api.base),
        1,
        &cfg.provider_defaults(),
        &crate::filter::prompts(),
    )
    .unwrap();
    let out = roll(
        &r,
        &format!("anthropic:claude-standin@{}", model.base),
        &solver,
        &judge,
        1,
    );
    assert_eq!(out.trials[0].reward, Some(1.0), "{out:?}");
    assert_eq!(out.trials[0].judge, Some(0.0));
    match &out.conclusion {
        Conclusion::Teacher {
            classified,
            decision,
            ..
        } => {
            assert!(
                matches!(classified.inclusion, Inclusion::Disagreement { gap } if (gap - 1.0).abs() < 1e-9),
                "{classified:?}"
            );
            let d = decision.as_ref().unwrap();
            assert_eq!(d.after, "needs_human");
            assert!(d.reason.contains("disagreement"), "{}", d.reason);
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(
        r.status(TASK),
        "needs_human",
        "both sides go to the human queue"
    );
    let stored = &r.store().rollouts(TASK).unwrap()[0];
    assert_eq!(stored.detail["judge"]["reasoning"], "stand-in verdict 0");
    // The teacher spoke the Messages API with the computer tool; the judge, Responses with
    // one input_image: the final screenshot.
    assert_eq!(model.requests()[0].path, "/v1/messages");
    let req = &judge_api.requests()[0];
    assert_eq!(req.path, "/v1/responses");
    assert!(req.body["instructions"].as_str().unwrap().contains("Judge"));
    assert_eq!(req.body["input"][0]["content"][1]["type"], "input_image");
    assert_eq!(
        image_hashes(req),
        last_shots(&r, out.trials[0].rollout_id, 1)
    );
}

#[test]
fn screen_judge_standins_speak_each_wire_and_a_failure_is_an_error_never_a_zero() {
    use tuplewright::engine::rollout::judge::{Judge, JudgeInput};
    use tuplewright::engine::rollout::RolloutError;
    let cfg = tuplewright::engine::rollout::vlm::VlmConfig {
        backoff_base_ms: 1,
        max_retries: 1,
        request_timeout_secs: 10.0,
        ..Default::default()
    };
    let mut png = Vec::new();
    image::RgbImage::from_pixel(4, 3, image::Rgb([200, 10, 10]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let shots: Vec<&[u8]> = vec![png.as_slice(), png.as_slice()];
    let checklist = vec!["Set the topic".to_string()];
    let state = json!({"apps": {"team-chat": {"state_diff": {"channels": "changed"}}}});
    let input = JudgeInput {
        instruction: "Set the topic of #design.",
        checklist: &checklist,
        final_state: &state,
        screenshots: &shots,
    };
    let judge = |spec: String, n: usize| {
        ScreenJudge::from_spec(
            &spec,
            n,
            &cfg.provider_defaults(),
            &crate::filter::prompts(),
        )
        .unwrap()
    };

    // Anthropic: image blocks, the verdict in a text block; no computer-use beta header.
    let api = StandIn::start(
        vec![Reply::json(anthropic_text(
            &format!("Looks done.\n{}", verdict(0.75)),
            700,
            20,
        ))],
        None,
    );
    let j = judge(format!("anthropic:judge-standin@{}", api.base), 2);
    assert_eq!(j.screenshots(), 2);
    let s = j.score(&input).unwrap();
    assert_eq!((s.score, s.screenshots, s.tokens), (0.75, 2, (700, 20)));
    let req = &api.requests()[0];
    assert_eq!(req.path, "/v1/messages");
    assert_eq!(req.header("anthropic-beta"), None);
    let blocks = req.body["messages"][0]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 3, "the prompt and two images");
    assert_eq!(blocks[1]["source"]["media_type"], "image/png");

    // Without screenshots (a trial with no screen) the judge reads the final state.
    let api = StandIn::start(vec![Reply::json(openai_text(&verdict(1.0), 1, 1))], None);
    let j = judge(format!("vlm:openai:judge-standin@{}/v1", api.base), 1);
    let no_shots = JudgeInput {
        screenshots: &[],
        ..input
    };
    assert_eq!(j.score(&no_shots).unwrap().screenshots, 0);
    let text = api.requests()[0].body["messages"][1]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("## Final state") && text.contains("changed"),
        "{text}"
    );

    // A judge that is down, answers garbage or an out-of-range score is an error, never 0.
    for (reply, expect) in [
        (Reply::raw(503, "{\"error\": \"down\"}"), "503"),
        (
            Reply::json(openai_text("I think it is fine.", 1, 1)),
            "no JSON object",
        ),
        (
            Reply::json(openai_text(&json!({"score": 7}).to_string(), 1, 1)),
            "score",
        ),
        (Reply::json(json!({"choices": []})), "choices[0]"),
    ] {
        let api = StandIn::start(vec![], Some(reply));
        let j = judge(format!("vlm:openai:judge-standin@{}/v1", api.base), 1);
        match j.score(&input) {
            Err(RolloutError::Judge(e)) => assert!(e.contains(expect), "{e}"),
            other => panic!("{other:?}"),
        }
    }
    let bad = ScreenJudge::from_spec(
        "openai:gpt",
        1,
        &cfg.provider_defaults(),
        &crate::filter::prompts(),
    );
    assert!(bad.is_err());
}
