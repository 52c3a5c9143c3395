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

use crate::filter::rig::{rig, PARTIAL_AGENT};
use crate::filter::standin::{openai_text, Reply, StandIn};
use crate::filter::{prompts, provider};

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

#[test]
fn files_domain_probes_score_one_and_zero_and_the_final_files_are_stored() {
    use tuplewright::engine::rollout::{NoopPolicy, OraclePolicy, Policy};
    use tuplewright::engine::store::{Labels, RoundRecord, Scripts, TaskRecord, TupleStatus};
    let r = rig(&[]);
    let id = "files_notes_001";
    let reward = r#"import json
t = open('/home/user/notes.txt').read()
a = 1.0 if 'final' in t else 0.0
b = 1.0 if 'version' in t else 0.0
for n, s in [('says final', a), ('says version', b)]:
    print('COMPONENT: ' + json.dumps({'name': n, 'weight': 0.5, 'score': s, 'detail': t}))
print('REWARD: ' + str(0.5 * a + 0.5 * b))
"#;
    let mut store = r.store();
    store
        .write(|tx| {
            tx.upsert_task(&TaskRecord {
                task_id: id.into(),
                instruction: "Turn notes.txt into the final version.".into(),
                context: String::new(),
                labels: Labels {
                    apps: vec!["files".into()],
                    ..Labels::default()
                },
                app_type: None,
                original_json: json!({}),
                origin: "test".into(),
            })?;
            tx.record_round(&RoundRecord {
                task_id: id.into(),
                round_no: None,
                verdict: "pass".into(),
                source: "import".into(),
                scripts: Scripts {
                    setup: Some("open('/home/user/notes.txt', 'w').write('draft\\n')\n".into()),
                    golden: Some(
                        "open('/home/user/notes.txt', 'w').write('final version\\n')\n".into(),
                    ),
                    reward: Some(reward.into()),
                },
                review_md: String::new(),
                scan_findings: json!([]),
                generator_model: None,
                discriminator_model: None,
                started_at: String::new(),
                finished_at: String::new(),
                script_runs: vec![],
                reward_runs: vec![],
                usage: vec![],
            })?;
            tx.record_decision(
                id,
                TupleStatus::LoopAccepted,
                "test",
                DecisionSource::Policy,
                "",
                None,
            )?;
            Ok::<_, tuplewright::engine::store::StoreError>(())
        })
        .unwrap();
    let opts = StageOptions {
        trials: 1,
        delta: 0.25,
        trivial_keep_fraction: 0.0,
        judge: None,
        refine: false,
    };
    for (policy, expected) in [(&OraclePolicy as &dyn Policy, 1.0), (&NoopPolicy, 0.0)] {
        let out = r
            .with_runtime(|rt| rollout_task(rt, &r.bus, id, policy, &opts))
            .unwrap();
        assert_eq!(out.trials[0].reward, Some(expected), "{out:?}");
    }
    let stored = store.rollouts(id).unwrap();
    let files = stored[0].detail["final_files"].to_string();
    assert!(
        files.contains("/home/user/notes.txt") && files.contains("sha256"),
        "{files}"
    );
    assert!(
        !files.contains("final version"),
        "texts are not stored: {files}"
    );
}
