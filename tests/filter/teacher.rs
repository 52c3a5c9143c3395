//! Teacher rollouts with an LLM judge on a stand-in server: agreement accepts; disagreement goes
//! through two Discriminator refinement passes (real rounds, C1–C5 re-checked) and is then dropped.

use std::time::Duration;

use serde_json::json;
use tuplewright::engine::filter::{apply_on_bus, Action, DecisionRequest, FilterError};
use tuplewright::engine::rollout::command::CommandPolicy;
use tuplewright::engine::rollout::judge::LlmJudge;
use tuplewright::engine::rollout::stage::{Conclusion, StageOptions};
use tuplewright::engine::rollout::{rollout_task, Inclusion};
use tuplewright::engine::store::DecisionSource;

use crate::rig::{rig, PARTIAL_AGENT};
use crate::standin::{openai_text, Reply, StandIn};
use crate::{prompts, provider};

fn judge_server(score: f64) -> StandIn {
    let body = json!({"checklist": [{"item": "topic announces the freeze", "met": score > 0.9,
        "evidence": "topic"}], "score": score, "reasoning": "stand-in"})
    .to_string();
    StandIn::start(vec![], Some(Reply::json(openai_text(&body, 300, 40))))
}

#[test]
fn a_judge_standin_agreeing_accepts_and_disagreeing_is_refined_twice_then_dropped() {
    let r = rig(&["chat_topic_020", "chat_topic_021"]);
    let store = r.store();
    for id in ["chat_topic_020", "chat_topic_021"] {
        let req = DecisionRequest {
            task_id: id,
            action: Action::Keep,
            actor: "tester",
            source: DecisionSource::Human,
            reason: "fine",
            aggregate: None,
        };
        // Through the bus, as a face sharing the running engine would.
        apply_on_bus(&r.bus, &req).unwrap();
    }
    let bad = DecisionRequest {
        task_id: "chat_topic_020",
        action: Action::ModifyQuery("  ".into()),
        actor: "tester",
        source: DecisionSource::Human,
        reason: "x",
        aggregate: None,
    };
    assert!(matches!(
        apply_on_bus(&r.bus, &bad),
        Err(FilterError::Invalid(_))
    ));
    assert_eq!(
        store.decisions("chat_topic_020").unwrap().len(),
        3,
        "in_loop, loop_accepted, keep; nothing for the refused one"
    );
    let policy = CommandPolicy {
        command: PARTIAL_AGENT.into(),
        timeout: Duration::from_secs(60),
    };

    let agree = judge_server(0.5);
    let judge = LlmJudge::new(provider(&agree.base), &prompts()).unwrap();
    let opts = StageOptions {
        trials: 1,
        delta: 0.25,
        trivial_keep_fraction: 0.0,
        judge: Some(&judge),
        refine: true,
    };
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, "chat_topic_020", &policy, &opts))
        .unwrap();
    match &out.conclusion {
        Conclusion::Teacher {
            classified,
            note,
            refine_passes,
            ..
        } => {
            assert_eq!(classified.inclusion, Inclusion::Accepted);
            assert!(classified.judged && note.is_none());
            assert_eq!(*refine_passes, 0);
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(r.status("chat_topic_020"), "final");
    let seen = agree.requests()[0].body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        seen.contains("## Checklist") && seen.contains("Release 2.4"),
        "{seen}"
    );
    let stored = store.rollouts("chat_topic_020").unwrap();
    assert_eq!(stored[0].judge_verdict.as_deref(), Some("0.5000"));

    let disagree = judge_server(1.0);
    let judge = LlmJudge::new(provider(&disagree.base), &prompts()).unwrap();
    let opts = StageOptions {
        judge: Some(&judge),
        ..opts
    };
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, "chat_topic_021", &policy, &opts))
        .unwrap();
    match &out.conclusion {
        Conclusion::Teacher {
            classified,
            refine_passes,
            decision,
            ..
        } => {
            assert!(matches!(
                classified.inclusion,
                Inclusion::Disagreement { .. }
            ));
            assert_eq!(*refine_passes, 2);
            assert_eq!(decision.as_ref().unwrap().after, "dropped");
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(
        disagree.requests().len(),
        3,
        "one judged trial per roll: initial + two re-rolls"
    );
    let rounds = store.rounds("chat_topic_021").unwrap();
    let refined: Vec<_> = rounds
        .iter()
        .filter(|x| x.round.source == "refine")
        .collect();
    assert_eq!(refined.len(), 2);
    assert!(
        refined.iter().all(|x| x.round.verdict == "pass"),
        "C1-C5 re-checked on each pass"
    );
}
