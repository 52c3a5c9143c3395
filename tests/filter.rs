//! Filter stage, decisions and rollouts on tuples produced by the real agreement loop (real
//! state-API server, real bubblewrap sandbox, fixed agents). LLM critics and judges run against
//! local stand-in servers speaking the OpenAI wire format (tests named `*_standin_*`).

use crate::harness::agents;
mod cli;
mod rig;
mod solver;
use crate::providers::standin;
mod teach_standin;
mod teacher;
mod vlm_teacher;

use std::sync::Arc;

use serde_json::json;
use tuplewright::engine::filter::llm::LlmCritic;
use tuplewright::engine::filter::rules::{decide_all, Rules};
use tuplewright::engine::filter::scripted::ScriptedCritic;
use tuplewright::engine::filter::{
    apply, effective_outcome, filter_task, Action, Critic, DecisionRequest, Outcome, Quorum,
};
use tuplewright::engine::providers::{build_provider, ChatProvider, ProviderConfig, ProviderKind};
use tuplewright::engine::rollout::command::CommandPolicy;
use tuplewright::engine::rollout::judge::LlmJudge;
use tuplewright::engine::rollout::stage::{Conclusion, StageOptions};
use tuplewright::engine::rollout::{
    rollout_task, Inclusion, NoopPolicy, OraclePolicy, Policy, PolicyCtx, PolicyKind, PolicyRun,
    RolloutError,
};
use tuplewright::engine::store::DecisionSource;

use rig::{rig, INSTRUCTION};
use standin::{openai_text, Reply, StandIn};

pub fn prompts() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("prompts")
}

pub fn provider(base: &str) -> Arc<dyn ChatProvider> {
    build_provider(&ProviderConfig {
        kind: ProviderKind::Openai,
        model: "standin-critic".into(),
        base_url: format!("{base}/v1"),
        api_key_env: "TW_TEST_NEVER_SET_FILTER".into(),
        connect_timeout_secs: 2.0,
        request_timeout_secs: 5.0,
        max_retries: 2,
        backoff_base_ms: 1,
        backoff_max_ms: 5,
        ..ProviderConfig::default()
    })
    .unwrap()
}

fn vote_json(verdict: &str, confidence: f64, revised: &str) -> String {
    json!({"verdict": verdict, "severity": if verdict == "reject" { "P0" } else { "P2" },
        "can_fix_with_query_only": verdict == "modify_query", "query_issues": [],
        "setup_reward_risks": [], "training_pool_fit": "good", "confidence": confidence,
        "reasoning_summary": "stand-in", "revised_query": revised})
    .to_string()
}

fn std_default_opts() -> StageOptions<'static> {
    StageOptions {
        trials: 1,
        delta: 0.25,
        trivial_keep_fraction: 0.0,
        judge: None,
        refine: false,
    }
}

#[test]
fn scripted_critics_keep_a_clean_loop_tuple_and_the_probes_score_one_and_zero() {
    let r = rig(&["chat_topic_001"]);
    let id = "chat_topic_001";
    let mut store = r.store();
    let critics: Vec<Box<dyn Critic>> = vec![Box::new(ScriptedCritic), Box::new(ScriptedCritic)];
    let v = filter_task(&mut store, &critics, Quorum::Strict, id).unwrap();
    assert_eq!(v.aggregate.outcome, Outcome::Keep, "{v:?}");
    assert_eq!(r.status(id), "voted");
    let votes = store.votes(id).unwrap();
    assert_eq!(votes.len(), 2);
    assert_eq!(votes[0].vote["heuristic"], true);
    assert_eq!(votes[0].vote["severity"], "P3", "{}", votes[0].vote);
    // A second filter run refuses: the tuple is no longer loop_accepted.
    assert!(filter_task(&mut store, &critics, Quorum::Strict, id).is_err());

    for (policy, expected) in [
        (
            &OraclePolicy as &dyn tuplewright::engine::rollout::Policy,
            1.0,
        ),
        (&NoopPolicy, 0.0),
    ] {
        let out = r
            .with_runtime(|rt| rollout_task(rt, &r.bus, id, policy, &std_default_opts()))
            .unwrap();
        assert_eq!(out.trials[0].reward, Some(expected), "{out:?}");
        match &out.conclusion {
            Conclusion::Probe { defects, .. } => assert!(defects.is_empty(), "{defects:?}"),
            c => panic!("{c:?}"),
        }
    }
    // A probe that cannot run says nothing about the reward: no verdict, never a defect.
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, id, &BrokenProbe, &std_default_opts()))
        .unwrap();
    match &out.conclusion {
        Conclusion::Failed { failures } => {
            assert!(failures[0].contains("no screen here"), "{failures:?}")
        }
        c => panic!("a failed probe trial is no reward defect: {c:?}"),
    }
    assert_eq!(out.trials[0].reward, None);
    assert_eq!(r.status(id), "voted", "probes never move the status");
    let rollouts = store.rollouts(id).unwrap();
    assert_eq!(rollouts.len(), 3, "the failed probe trial is recorded too");
    assert!(rollouts[2]
        .failure
        .as_deref()
        .is_some_and(|f| f.contains("no screen here")));
    let diff = &rollouts[0].detail["final_state_diff"]["team-chat"];
    assert!(
        diff.to_string().contains("Release 2.4 freeze"),
        "the oracle's final state diff is stored: {diff}"
    );
    assert_eq!(
        rollouts[0].detail["components"].as_array().unwrap().len(),
        2
    );
    let noop_diff = rollouts[1].detail["final_state_diff"]["team-chat"].to_string();
    assert!(!noop_diff.contains("2.4 freeze"), "{noop_diff}");
    // Each trial's final state is stored (schema v5), linked to its rollout row.
    let finals = store.rollout_states(id).unwrap();
    assert_eq!(finals.len(), 2, "{finals:?}");
    assert_eq!(finals[0].states[0].env, "team-chat");
    assert!(finals[0].states[0]
        .state
        .to_string()
        .contains("Release 2.4 freeze"));
    assert!(!finals[1].states[0].state.to_string().contains("2.4 freeze"));
}

#[test]
fn a_scripted_critic_flags_a_leaking_instruction_and_the_revision_is_released() {
    let r = rig(&["chat_topic_002"]);
    let id = "chat_topic_002";
    let mut store = r.store();
    // Reword the stored instruction so that it leaks the method (as an imported task might).
    store
        .write(|tx| {
            tx.conn().sqlite().unwrap().execute(
                "UPDATE tasks SET instruction = ?1 WHERE task_id = ?2",
                rusqlite::params![
                    format!("{INSTRUCTION} Use the API endpoint /post?sid= with merge."),
                    id
                ],
            )?;
            Ok::<_, tuplewright::engine::store::StoreError>(())
        })
        .unwrap();
    let critics: Vec<Box<dyn Critic>> = vec![Box::new(ScriptedCritic)];
    let v = filter_task(&mut store, &critics, Quorum::Strict, id).unwrap();
    assert_eq!(
        v.aggregate.outcome,
        Outcome::ModifyQuery {
            revised_query: INSTRUCTION.into()
        }
    );
    let o = effective_outcome(&store, id).unwrap().unwrap();
    assert_eq!(o.revised_query.as_deref(), Some(INSTRUCTION));
    assert_eq!(o.severity.as_deref(), Some("P1"));
}

#[test]
fn llm_critics_standin_vote_and_the_highest_confidence_revision_wins() {
    let r = rig(&["chat_topic_003"]);
    let id = "chat_topic_003";
    let a = StandIn::start(
        vec![Reply::json(openai_text(
            &vote_json("modify_query", 0.6, "Low."),
            100,
            50,
        ))],
        None,
    );
    // Invalid first (keep with a revised query), then valid after the error is shown.
    let b = StandIn::start(
        vec![
            Reply::json(openai_text(&vote_json("keep", 0.9, "oops"), 100, 50)),
            Reply::json(openai_text(
                &format!(
                    "Sure:\n```json\n{}\n```",
                    vote_json("modify_query", 0.9, "High.")
                ),
                100,
                50,
            )),
        ],
        None,
    );
    let c = StandIn::start(
        vec![Reply::json(openai_text(
            &vote_json("reject", 0.7, ""),
            100,
            50,
        ))],
        None,
    );
    let critics: Vec<Box<dyn Critic>> = [&a, &b, &c]
        .iter()
        .map(|s| {
            Box::new(LlmCritic::new(provider(&s.base), &prompts(), 2).unwrap()) as Box<dyn Critic>
        })
        .collect();
    let mut store = r.store();
    let v = filter_task(&mut store, &critics, Quorum::Strict, id).unwrap();
    assert_eq!(
        v.aggregate.outcome,
        Outcome::ModifyQuery {
            revised_query: "High.".into()
        }
    );
    assert_eq!(v.aggregate.severity.map(|s| s.as_str()), Some("P0"));
    assert_eq!(v.decision.source, "llm");
    assert_eq!(r.status(id), "voted");
    // The critic saw the instruction and all three scripts, with the critic prompt as system.
    let req = &a.requests()[0].body;
    let user = req["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.contains(INSTRUCTION) && user.contains("## reward.py") && user.contains("COMPONENT")
    );
    assert!(req["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Critic"));
    // The retry carried the validation error.
    let retry = &b.requests()[1].body["messages"];
    assert!(retry.to_string().contains("revised_query"), "{retry}");
    assert_eq!(store.votes(id).unwrap().len(), 3);
    let usage: i64 = store
        .conn()
        .sqlite()
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM usage WHERE stage = 'critic'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(usage, 3);
}

#[test]
fn critic_providers_failing_every_call_standin_leave_the_tuple_undecided_then_rules_decide() {
    let r = rig(&["chat_topic_004"]);
    let id = "chat_topic_004";
    let down = StandIn::start(vec![], Some(Reply::raw(503, "{\"error\": \"down\"}")));
    let critics: Vec<Box<dyn Critic>> = (0..3)
        .map(|_| {
            Box::new(LlmCritic::new(provider(&down.base), &prompts(), 2).unwrap())
                as Box<dyn Critic>
        })
        .collect();
    let mut store = r.store();
    let v = filter_task(&mut store, &critics, Quorum::Strict, id).unwrap();
    assert_eq!(v.aggregate.outcome, Outcome::Undecided);
    assert_eq!(
        r.status(id),
        "needs_human",
        "never kept when every critic fails"
    );
    let votes = store.votes(id).unwrap();
    assert_eq!(votes.len(), 3, "failed votes are stored too");
    assert!(votes.iter().all(
        |v| v.vote["verdict"] == "failed" && v.vote["error"].as_str().unwrap().contains("503")
    ));

    let rules = Rules::parse(
        "[[rule]]\nseverity = [\"P0\"]\naction = \"reject\"\n[[rule]]\nseverity = [\"P3\"]\naction = \"keep\"\n",
        std::path::Path::new("rules.toml"),
    )
    .unwrap();
    let none = decide_all(&mut store, &rules, &rules.statuses, &[], "rules:test").unwrap();
    assert!(none.is_empty(), "no severity: the tuple stays queued");
    let rules = Rules::parse(
        "[[rule]]\nseverity = [\"none\"]\naction = \"reject\"\n",
        std::path::Path::new("rules.toml"),
    )
    .unwrap();
    let done = decide_all(&mut store, &rules, &rules.statuses, &[], "rules:test").unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(r.status(id), "vote_rejected");
    let err = Rules::parse(
        "[[rule]]\nseverity = [\"P9\"]\naction = \"keep\"\n",
        std::path::Path::new("r.toml"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("rule[0].severity") && err.contains("P9"),
        "{err}"
    );
}

#[test]
fn a_command_teacher_decides_inclusion_and_a_failing_judge_standin_is_an_error_not_a_zero() {
    let r = rig(&["chat_topic_005", "chat_topic_006"]);
    let mut store = r.store();
    for id in ["chat_topic_005", "chat_topic_006"] {
        apply(
            &mut store,
            &DecisionRequest {
                task_id: id,
                action: Action::Keep,
                actor: "tester",
                source: DecisionSource::Human,
                reason: "fine",
                aggregate: None,
            },
        )
        .unwrap();
    }
    // A partial agent: names Release 2.4 but not the freeze -> reward 0.5 every trial.
    let script = rig::PARTIAL_AGENT;
    let policy = CommandPolicy {
        command: script.into(),
        timeout: std::time::Duration::from_secs(60),
    };
    let opts = StageOptions {
        trials: 2,
        ..std_default_opts()
    };
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, "chat_topic_005", &policy, &opts))
        .unwrap();
    match &out.conclusion {
        Conclusion::Teacher {
            classified,
            note,
            decision,
            ..
        } => {
            assert_eq!(classified.inclusion, Inclusion::Accepted);
            assert!((classified.reward_mean - 0.5).abs() < 1e-9);
            assert!(note.as_deref().unwrap().contains("reward score alone"));
            assert_eq!(decision.as_ref().unwrap().after, "final");
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(r.status("chat_topic_005"), "final");

    let judge_down = StandIn::start(vec![], Some(Reply::raw(500, "{}")));
    let judge = LlmJudge::new(provider(&judge_down.base), &prompts()).unwrap();
    let opts = StageOptions {
        trials: 1,
        judge: Some(&judge),
        ..std_default_opts()
    };
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, "chat_topic_006", &policy, &opts))
        .unwrap();
    match &out.conclusion {
        Conclusion::Failed { failures } => {
            assert!(failures[0].contains("judge failed"), "{failures:?}")
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(
        r.status("chat_topic_006"),
        "voted",
        "no decision on a judge failure"
    );
    let stored = store.rollouts("chat_topic_006").unwrap();
    assert_eq!(stored[0].judge_verdict, None);
    assert!(stored[0]
        .failure
        .as_deref()
        .unwrap()
        .contains("judge failed"));

    // A command that fails is a policy failure, never a 0 score.
    let broken = CommandPolicy {
        command: "exit 3".into(),
        timeout: std::time::Duration::from_secs(10),
    };
    let out = r
        .with_runtime(|rt| rollout_task(rt, &r.bus, "chat_topic_006", &broken, &std_default_opts()))
        .unwrap();
    assert!(
        matches!(out.conclusion, Conclusion::Failed { .. }),
        "{out:?}"
    );
    assert_eq!(out.trials[0].reward, None);
}

/// A probe whose every trial fails as a policy (like `ui-oracle` on an app without a screen).
struct BrokenProbe;

impl Policy for BrokenProbe {
    fn name(&self) -> String {
        "broken-probe".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Probe { expected: 1.0 }
    }
    fn act(&self, _: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        Err(RolloutError::Policy("no screen here".into()))
    }
}

/// A critic during whose review a person rejects the tuple (as another process would).
struct Meddler(std::path::PathBuf);

impl Critic for Meddler {
    fn name(&self) -> String {
        "meddler".into()
    }
    fn is_heuristic(&self) -> bool {
        true
    }
    fn review(
        &self,
        input: &tuplewright::engine::filter::CriticInput,
    ) -> tuplewright::engine::filter::Review {
        let mut other =
            tuplewright::engine::store::Store::open(&self.0, std::time::Duration::from_secs(10))
                .unwrap();
        let req = DecisionRequest {
            task_id: &input.task_id,
            action: Action::Reject,
            actor: "ana",
            source: DecisionSource::Human,
            reason: "rejected while the critics ran",
            aggregate: None,
        };
        apply(&mut other, &req).unwrap();
        ScriptedCritic.review(input)
    }
}

#[test]
fn a_human_decision_taken_while_critics_run_is_not_overwritten_and_the_votes_are_kept() {
    let r = rig(&["chat_topic_030"]);
    let id = "chat_topic_030";
    let critics: Vec<Box<dyn Critic>> = vec![Box::new(Meddler(r.db.clone()))];
    let mut store = r.store();
    let err = filter_task(&mut store, &critics, Quorum::Strict, id).unwrap_err();
    assert!(err.to_string().contains("dropped"), "{err}");
    assert_eq!(r.status(id), "dropped");
    assert_eq!(
        store.votes(id).unwrap().len(),
        1,
        "the vote is still stored"
    );
    let last = store.decisions(id).unwrap().pop().unwrap();
    assert_eq!(last.actor, "ana");
}
