//! A VLM teacher (chat-completions stand-in, `qwen-xml`) rolled out by the real stage on a tuple
//! from the real loop: the policy drives Chromium on a real screen, reward.py scores the final
//! state, the trial is stored with the model's turns, and the tokens land under `rollout`.

use std::sync::Arc;

use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::stage::StageOptions;
use tuplewright::engine::rollout::vlm::{wire_from_spec, ActionFormat, ChromiumScreen, VlmPolicy};
use tuplewright::engine::rollout::{rollout_task, Policy};
use tuplewright::engine::screen::ScreenConfig;

use crate::filter::rig::rig;
use crate::filter::standin::{openai_text, Reply, StandIn};
use crate::vlm_support::{fast_config, FormServer, FIELD};

#[test]
fn a_vlm_teacher_standin_acts_through_the_screen_and_its_trial_is_scored_and_stored() {
    let r = rig(&["chat_topic_030"]);
    let form = FormServer::start();
    let cfg = fast_config();
    let probe =
        wire_from_spec("vlm:openai:cua-gym-standin@http://127.0.0.1:9/v1", &cfg).expect("wire");
    let coords = probe.coords(1280, 800).expect("coords");
    let say = |a: &[A]| {
        Reply::json(openai_text(
            &ActionFormat::QwenXml.render("Go.", a, &coords),
            2000,
            40,
        ))
    };
    let model = StandIn::start(
        vec![
            say(&[
                A::LeftClick {
                    x: FIELD.0,
                    y: FIELD.1,
                },
                A::Type {
                    text: "freeze".into(),
                },
                A::Key {
                    key: "Return".into(),
                },
            ]),
            say(&[A::Terminate { success: true }]),
        ],
        None,
    );
    let wire = wire_from_spec(
        &format!("vlm:openai:cua-gym-standin@{}/v1", model.base),
        &cfg,
    )
    .expect("wire");
    let policy = VlmPolicy::new(
        wire,
        cfg.limits(),
        Arc::new(ChromiumScreen {
            cfg: ScreenConfig::default(),
            url: form.url.clone(),
        }),
    );
    assert_eq!(policy.name(), "vlm:openai:cua-gym-standin");
    let opts = StageOptions {
        trials: 1,
        delta: 0.25,
        trivial_keep_fraction: 0.0,
        judge: None,
        refine: false,
    };
    r.with_runtime(|rt| rollout_task(rt, &r.bus, "chat_topic_030", &policy, &opts))
        .expect("stage");
    assert_eq!(
        form.posts(),
        vec!["freeze".to_string()],
        "the policy drove the page"
    );
    let trials = r.store().rollouts("chat_topic_030").expect("rollouts");
    assert_eq!(trials.len(), 1);
    let t = &trials[0];
    assert_eq!(t.model, "vlm:openai:cua-gym-standin");
    assert!(t.failure.is_none(), "{:?}", t.failure);
    assert_eq!(
        t.reward,
        Some(0.0),
        "the page is not the app: reward.py scores the untouched state"
    );
    let turns = t.detail["actions"].as_array().expect("turn records");
    assert_eq!(turns.len(), 2);
    assert!(turns[0]["reply"]
        .as_str()
        .expect("reply")
        .contains("<function=computer_use>"));
    assert_eq!(turns[0]["actions"].as_array().map(Vec::len), Some(3));
    assert_eq!(t.detail["policy_usage"]["input_tokens"], 4000);
    let conn = rusqlite::Connection::open(&r.db).expect("db");
    let rows: (i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), SUM(input_tokens) FROM usage WHERE stage = 'rollout' AND task_id = 'chat_topic_030'",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("usage");
    assert_eq!(
        rows,
        (2, 4000),
        "one usage row per turn under the rollout stage"
    );
}
