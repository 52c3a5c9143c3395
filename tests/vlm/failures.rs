//! Sampler failures (5xx, timeouts, dropped connections, garbage) and the endings that are not a
//! score, on a bare Xvfb screen (no page needed).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::vlm::{
    run_episode, wire_from_spec, ActionFormat, Ending, VlmConfig,
};
use tuplewright::engine::rollout::RolloutError;

use crate::screen_support::screen;
use crate::vlm::standin::{dropping_server, openai_text, Reply, StandIn};
use crate::vlm_support::fast_config;

fn turn(actions: &[A]) -> Reply {
    let coords = tuplewright::engine::rollout::vlm::Coords::new(
        tuplewright::engine::rollout::vlm::CoordSpace::Relative1000,
        640,
        400,
    )
    .expect("coords");
    Reply::json(openai_text(
        &ActionFormat::QwenXml.render("", actions, &coords),
        10,
        5,
    ))
}

fn run(
    base: &str,
    cfg: &VlmConfig,
) -> Result<tuplewright::engine::rollout::vlm::Episode, RolloutError> {
    let wire = wire_from_spec(&format!("vlm:openai:standin@{base}/v1"), cfg).expect("wire");
    let mut s = screen(640, 400);
    run_episode(
        &mut s,
        wire.as_ref(),
        "Do nothing.",
        &cfg.limits(),
        &AtomicBool::new(false),
    )
}

#[test]
fn chat_standin_persistent_5xx_is_an_infrastructure_failure_after_five_retries() {
    let model = StandIn::start(vec![], Some(Reply::raw(503, r#"{"error": "down"}"#)));
    let err = run(&model.base, &fast_config()).expect_err("no score");
    assert!(matches!(err, RolloutError::Infra(_)), "{err}");
    assert!(
        err.to_string().contains("gave up after 6 attempts"),
        "{err}"
    );
    assert_eq!(model.requests().len(), 6, "one try and five retries");
}

#[test]
fn chat_standin_garbage_body_is_infrastructure_not_a_score() {
    let model = StandIn::start(vec![Reply::raw(200, "<html>proxy error</html>")], None);
    let err = run(&model.base, &fast_config()).expect_err("no score");
    assert!(
        matches!(err, RolloutError::Infra(_)) && err.to_string().contains("not JSON"),
        "{err}"
    );
}

#[test]
fn chat_standin_a_timeout_and_dropped_connections_are_retried() {
    let model = StandIn::start(
        vec![
            turn(&[A::Terminate { success: false }]).delayed(Duration::from_secs(4)),
            turn(&[A::Terminate { success: false }]),
        ],
        None,
    );
    let cfg = VlmConfig {
        request_timeout_secs: 1.0,
        ..fast_config()
    };
    let ep = run(&model.base, &cfg).expect("retried past the timeout");
    assert_eq!(ep.ending, Ending::Terminated { success: false });
    assert_eq!(ep.usage.calls, 2);

    let coords = tuplewright::engine::rollout::vlm::Coords::new(
        tuplewright::engine::rollout::vlm::CoordSpace::Relative1000,
        640,
        400,
    )
    .expect("coords");
    let body = openai_text(
        &ActionFormat::QwenXml.render("", &[A::Terminate { success: true }], &coords),
        1,
        1,
    );
    let (base, hits) = dropping_server(2, body);
    let ep = run(&base, &fast_config()).expect("retried past two drops");
    assert_eq!(ep.ending, Ending::Terminated { success: true });
    assert!(
        *hits.lock().expect("lock") >= 3,
        "two drops, then the answer"
    );
}

#[test]
fn chat_standin_call_user_ends_the_episode_as_asked_the_user_and_max_turns_stops_it() {
    let model = StandIn::start(
        vec![turn(&[A::CallUser {
            question: "Which file?".into(),
        }])],
        None,
    );
    let ep = run(&model.base, &fast_config()).expect("episode");
    assert_eq!(
        ep.ending,
        Ending::AskedUser {
            question: "Which file?".into()
        }
    );

    let model = StandIn::start(vec![], Some(turn(&[A::MouseMove { x: 10, y: 10 }])));
    let cfg = VlmConfig {
        max_turns: 3,
        settle_ms: 0,
        ..fast_config()
    };
    let ep = run(&model.base, &cfg).expect("episode");
    assert_eq!(ep.ending, Ending::MaxTurns);
    assert_eq!(model.requests().len(), 3);
    assert_eq!(ep.steps.len(), 3);
}
