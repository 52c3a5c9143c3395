//! Unit tests: vote validation and the aggregation rules.

use serde_json::json;

use super::aggregate::{aggregate, Ballot, Outcome, Quorum};
use super::vote::{parse_vote, CriticVote, PoolFit, Severity, Verdict, VoteError};

fn vote(verdict: Verdict, severity: Severity, confidence: f64, q: &str) -> Ballot {
    Ballot::Valid(CriticVote {
        verdict,
        severity,
        can_fix_with_query_only: verdict == Verdict::ModifyQuery,
        query_issues: vec![],
        setup_reward_risks: vec![],
        training_pool_fit: PoolFit::Good,
        confidence,
        reasoning_summary: String::new(),
        revised_query: q.into(),
    })
}

fn keep() -> Ballot {
    vote(Verdict::Keep, Severity::P3, 0.9, "")
}
fn reject(s: Severity) -> Ballot {
    vote(Verdict::Reject, s, 0.9, "")
}
fn failed() -> Ballot {
    Ballot::Failed("HTTP 503".into())
}

#[test]
fn quorum_sizes() {
    assert_eq!(Quorum::Strict.required(3), 2);
    assert_eq!(Quorum::Strict.required(4), 3);
    assert_eq!(Quorum::Paper.required(3), 3);
    assert_eq!(Quorum::Paper.required(4), 3);
    assert_eq!(Quorum::Paper.required(5), 4);
    assert_eq!(Quorum::parse("2"), Ok(Quorum::Fixed(2)));
    assert!(Quorum::parse("0").is_err() && Quorum::parse("most").is_err());
}

#[test]
fn majority_keep_admits_with_the_worst_severity() {
    let a = aggregate(&[keep(), keep(), reject(Severity::P1)], Quorum::Strict);
    assert_eq!(a.outcome, Outcome::Keep);
    assert_eq!(a.severity, Some(Severity::P1));
    assert_eq!((a.keep, a.reject, a.quorum), (2, 1, 2));
}

#[test]
fn majority_modify_releases_the_highest_confidence_revision() {
    let a = aggregate(
        &[
            vote(Verdict::ModifyQuery, Severity::P1, 0.5, "low"),
            vote(Verdict::ModifyQuery, Severity::P2, 0.8, "high"),
            keep(),
        ],
        Quorum::Strict,
    );
    assert_eq!(
        a.outcome,
        Outcome::ModifyQuery {
            revised_query: "high".into()
        }
    );
}

#[test]
fn ties_reject_and_too_few_admitting_votes_reject() {
    let tie = aggregate(
        &[keep(), vote(Verdict::ModifyQuery, Severity::P2, 0.7, "x")],
        Quorum::Strict,
    );
    assert!(matches!(tie.outcome, Outcome::Reject { .. }), "{tie:?}");
    let split = aggregate(
        &[keep(), keep(), reject(Severity::P0), reject(Severity::P0)],
        Quorum::Strict,
    );
    assert!(matches!(split.outcome, Outcome::Reject { .. }));
    // The paper's quorum is stricter: 2 of 3 is not enough.
    let paper = aggregate(&[keep(), keep(), reject(Severity::P2)], Quorum::Paper);
    assert!(matches!(paper.outcome, Outcome::Reject { .. }));
}

#[test]
fn failed_critics_make_a_tuple_undecided_never_kept() {
    let all_failed = aggregate(&[failed(), failed(), failed()], Quorum::Strict);
    assert_eq!(all_failed.outcome, Outcome::Undecided);
    assert_eq!(all_failed.severity, None);
    // One valid keep of three voters: below the quorum of 2.
    let one = aggregate(&[keep(), failed(), failed()], Quorum::Strict);
    assert_eq!(one.outcome, Outcome::Undecided);
    // Two valid keeps reach the quorum even with one failure.
    let two = aggregate(&[keep(), keep(), failed()], Quorum::Strict);
    assert_eq!(two.outcome, Outcome::Keep);
    assert_eq!(aggregate(&[], Quorum::Strict).outcome, Outcome::Undecided);
}

fn valid_json() -> serde_json::Value {
    json!({"verdict": "keep", "severity": "P3", "can_fix_with_query_only": false,
        "query_issues": [], "setup_reward_risks": [{"type": "x", "severity": "low", "evidence": "e"}],
        "training_pool_fit": "good", "confidence": 0.8, "reasoning_summary": "fine",
        "revised_query": ""})
}

#[test]
fn a_vote_in_prose_and_fences_parses() {
    let text = format!("Here you go:\n```json\n{}\n```\nthanks", valid_json());
    let v = parse_vote(&text).unwrap();
    assert_eq!(v.verdict, Verdict::Keep);
    assert_eq!(v.setup_reward_risks.len(), 1);
}

#[test]
fn invalid_votes_name_the_field() {
    let field = |mut v: serde_json::Value, k: &str, x: serde_json::Value| {
        v[k] = x;
        match parse_vote(&v.to_string()) {
            Err(VoteError::Field { field, .. }) => field,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(field(valid_json(), "verdict", json!("maybe")), "verdict");
    assert_eq!(field(valid_json(), "severity", json!("P5")), "severity");
    assert_eq!(field(valid_json(), "confidence", json!(1.5)), "confidence");
    assert_eq!(
        field(
            valid_json(),
            "setup_reward_risks",
            json!([{"type": "x", "severity": "huge", "evidence": ""}])
        ),
        "setup_reward_risks[0].severity"
    );
    assert_eq!(
        field(valid_json(), "verdict", json!("modify_query")),
        "revised_query"
    );
    assert_eq!(
        field(valid_json(), "revised_query", json!("reworded")),
        "revised_query"
    );
    let mut missing = valid_json();
    missing.as_object_mut().unwrap().remove("training_pool_fit");
    assert!(matches!(
        parse_vote(&missing.to_string()),
        Err(VoteError::Field { .. })
    ));
    assert!(matches!(
        parse_vote("no json here"),
        Err(VoteError::NoJson(_))
    ));
}

mod scripted {
    use super::super::critic::CriticInput;
    use super::super::scripted::ScriptedCritic;
    use super::super::vote::{Severity, Verdict};

    fn input(instruction: &str) -> CriticInput {
        CriticInput {
            task_id: "t".into(),
            instruction: instruction.into(),
            setup: "post('set', {'topic': 'Planning ahead'})".into(),
            golden: "post('merge', {'topic': 'Release 2.4 freeze'})".into(),
            reward: "print('REWARD: 1.0')".into(),
            golden_components: Some(vec![
                "topic names release 2.4".into(),
                "topic says freeze".into(),
            ]),
            initial_reward: Some(0.0),
        }
    }

    const GOOD: &str = "Set the topic of #release to announce the Release 2.4 freeze.";

    #[test]
    fn a_clean_tuple_is_kept_as_p3_and_the_vote_says_heuristic() {
        let v = ScriptedCritic.judge(&input(GOOD));
        assert_eq!(
            (v.verdict, v.severity),
            (Verdict::Keep, Severity::P3),
            "{v:?}"
        );
        assert!(v.reasoning_summary.starts_with("heuristic checks"));
    }

    #[test]
    fn each_heuristic_fires() {
        let leak = ScriptedCritic.judge(&input(&format!("{GOOD} Call set_topic() to do it.")));
        assert_eq!(leak.verdict, Verdict::ModifyQuery);
        assert_eq!(leak.revised_query, GOOD);

        let vague = ScriptedCritic.judge(&input("Fix the topic."));
        assert_eq!(
            (vague.verdict, vague.severity),
            (Verdict::Reject, Severity::P1)
        );
        assert_eq!(vague.query_issues[0].kind, "too_vague");

        let mut one = input(GOOD);
        one.golden_components = Some(vec!["topic says freeze".into()]);
        let v = ScriptedCritic.judge(&one);
        assert_eq!(v.verdict, Verdict::Reject);
        assert!(v
            .setup_reward_risks
            .iter()
            .any(|r| r.kind == "single_component_reward"));

        let mut unasked = input(GOOD);
        unasked.golden_components = Some(vec![
            "topic says freeze".into(),
            "channel members count".into(),
        ]);
        let v = ScriptedCritic.judge(&unasked);
        assert_eq!((v.verdict, v.severity), (Verdict::Keep, Severity::P2));
        assert!(v
            .setup_reward_risks
            .iter()
            .any(|r| r.kind == "unasked_check"));

        let mut done = input(GOOD);
        done.initial_reward = Some(0.5);
        assert_eq!(ScriptedCritic.judge(&done).severity, Severity::P0);
        let mut done = input(GOOD);
        done.setup = "post('set', {'topic': 'Release 2.4 freeze'})".into();
        let v = ScriptedCritic.judge(&done);
        assert_eq!((v.verdict, v.severity), (Verdict::Reject, Severity::P0));
    }
}
