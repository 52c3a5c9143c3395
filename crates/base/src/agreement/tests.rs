//! Tests of the condition logic and of REVIEW.md rendering.

use super::*;

fn ok() -> ScriptRun {
    ScriptRun {
        ok: true,
        failure: None,
    }
}

fn comp(name: &str, weight: f64, score: f64) -> ComponentScore {
    ComponentScore {
        name: name.into(),
        weight,
        score,
        detail: format!("{name} checked"),
    }
}

fn scored(score: f64, comps: Vec<ComponentScore>) -> RewardRun {
    RewardRun::Scored {
        score,
        components: comps,
    }
}

fn passing() -> RoundObservation {
    let gold = scored(
        1.0,
        vec![
            comp("message posted", 0.6, 1.0),
            comp("thread reply", 0.4, 1.0),
        ],
    );
    let init = scored(
        0.0,
        vec![
            comp("message posted", 0.6, 0.0),
            comp("thread reply", 0.4, 0.0),
        ],
    );
    RoundObservation {
        round: 1,
        setup: ok(),
        golden: Some(ok()),
        scan: vec![],
        gold_runs: vec![gold.clone(), gold],
        init_runs: vec![init.clone(), init],
        probes: vec![],
        probe_threshold: 0.0,
    }
}

fn status(v: &RoundVerdict, id: ConditionId) -> ConditionStatus {
    v.conditions
        .iter()
        .find(|c| c.id == id)
        .map(|c| c.status)
        .unwrap()
}

#[test]
fn all_conditions_hold_means_pass() {
    let v = evaluate(&passing());
    assert!(v.pass);
    assert!(v.failing().is_empty());
}

#[test]
fn partial_golden_score_fails_c3_and_names_the_component() {
    let mut obs = passing();
    let gold = scored(
        0.6,
        vec![
            comp("message posted", 0.6, 1.0),
            comp("thread reply", 0.4, 0.0),
        ],
    );
    obs.gold_runs = vec![gold.clone(), gold];
    let v = evaluate(&obs);
    assert!(!v.pass);
    assert_eq!(v.failing(), vec![ConditionId::C3]);
    let md = render_review(&obs, &v, "abc");
    assert!(md.contains("## Verdict: FAIL"));
    assert!(md.contains("`thread reply` (score 0.00"), "{md}");
    assert!(!md.contains("`message posted` (score"), "{md}");
}

#[test]
fn non_deterministic_reward_fails_even_when_one_run_is_right() {
    let mut obs = passing();
    obs.gold_runs = vec![scored(1.0, vec![]), scored(0.0, vec![])];
    let v = evaluate(&obs);
    assert_eq!(status(&v, ConditionId::C3), ConditionStatus::Fail);
    assert!(v.conditions[2].details.contains("non-deterministic"));
}

#[test]
fn reward_error_is_a_failure_not_a_zero_score() {
    let mut obs = passing();
    obs.init_runs = vec![RewardRun::Error("no REWARD line".into()); 2];
    let v = evaluate(&obs);
    // A crashed reward on V_init must not satisfy C4 (r(init) = 0.0).
    assert_eq!(status(&v, ConditionId::C4), ConditionStatus::Fail);
    assert!(v.conditions[3].details.contains("reward error"));
}

#[test]
fn failed_setup_leaves_later_conditions_not_run() {
    let obs = RoundObservation {
        round: 2,
        setup: ScriptRun {
            ok: false,
            failure: Some("exit 1: KeyError 'channels'".into()),
        },
        golden: None,
        scan: vec![],
        gold_runs: vec![],
        init_runs: vec![],
        probes: vec![],
        probe_threshold: 0.0,
    };
    let v = evaluate(&obs);
    assert_eq!(status(&v, ConditionId::C1), ConditionStatus::Fail);
    assert_eq!(status(&v, ConditionId::C2), ConditionStatus::NotRun);
    assert_eq!(status(&v, ConditionId::C3), ConditionStatus::NotRun);
    let md = render_review(&obs, &v, "abc");
    assert!(md.contains("KeyError 'channels'"));
}

#[test]
fn scan_finding_fails_c5_and_reaches_feedback() {
    let mut obs = passing();
    obs.scan = vec![ScanFindingRef {
        rule: "bare-existence-score".into(),
        line: 12,
        reason: "score awarded on file existence alone".into(),
    }];
    let v = evaluate(&obs);
    assert_eq!(v.failing(), vec![ConditionId::C5]);
    let md = render_review(&obs, &v, "abc");
    assert!(md.contains("line 12: `bare-existence-score`"));
}

#[test]
fn review_follows_the_public_section_order() {
    let obs = passing();
    let md = render_review(&obs, &evaluate(&obs), "deadbeef");
    let order = [
        "# Round 1 Review",
        "## Verdict: PASS",
        "## Agreement Conditions",
        "## Scoring Breakdown — Golden File",
        "## Scoring Breakdown — Initial File",
        "## Probes",
        "## Feedback for Setup-Gen",
        "## Feedback for Reward-Gen",
        "## Reward Script Summary",
    ];
    let mut at = 0;
    for heading in order {
        let pos = md[at..].find(heading).map(|p| p + at);
        assert!(pos.is_some(), "missing or out of order: {heading}\n{md}");
        at = pos.unwrap_or(at);
    }
    insta::assert_snapshot!(md);
}

#[test]
fn pipes_in_details_do_not_break_the_table() {
    let mut obs = passing();
    obs.setup = ScriptRun {
        ok: false,
        failure: Some("a | b\nc".into()),
    };
    let md = render_review(&obs, &evaluate(&obs), "x");
    assert!(md.contains("a \\| b c"));
}

fn probe(name: &str, run: RewardRun) -> ProbeRun {
    ProbeRun {
        probe: name.into(),
        state: format!("{name} state"),
        run,
    }
}

#[test]
fn a_probe_above_the_threshold_fails_the_round_and_goes_to_the_discriminator() {
    let mut obs = passing();
    obs.probes = vec![
        probe("noop", scored(0.0, vec![])),
        probe("empty_state", scored(1.0, vec![])),
        probe(
            "destructive",
            RewardRun::Error("reward.py failed (exit code 1)".into()),
        ),
    ];
    let v = evaluate(&obs);
    assert!(!v.pass);
    assert!(v.failing().is_empty(), "C1–C5 still hold");
    assert_eq!(v.failing_names(), ["probe:empty_state"]);
    let md = render_review(&obs, &v, "x");
    assert!(md.contains("## Verdict: FAIL"));
    assert!(md.contains("| probe:noop | PASS | 0.00 |"), "{md}");
    assert!(md.contains("| probe:empty_state | FAIL | 1.00 |"), "{md}");
    assert!(
        md.contains("| probe:destructive | PASS | error | destructive state: no credit given"),
        "{md}"
    );
    let (setup, reward) = md.split_once("## Feedback for Reward-Gen").unwrap();
    assert!(setup.contains("None: no fault of initial_setup.py"), "{md}");
    assert!(reward.contains("Probe `probe:empty_state` failed"), "{md}");
    // A threshold the probe is under passes it.
    obs.probe_threshold = 0.5;
    obs.probes[1].run = scored(0.5, vec![]);
    assert!(evaluate(&obs).pass);
}

#[test]
fn a_reward_crash_is_the_discriminators_fault_never_the_generators() {
    let mut obs = passing();
    let crash = RewardRun::Error(
        "reward.py failed (exit code 1), importing a module that is not available here (`helpers`); stderr tail: ModuleNotFoundError: No module named 'helpers'".into(),
    );
    obs.gold_runs = vec![crash.clone(), crash];
    let v = evaluate(&obs);
    let md = render_review(&obs, &v, "x");
    let (setup, reward) = md.split_once("## Feedback for Reward-Gen").unwrap();
    let setup = setup.split_once("## Feedback for Setup-Gen").unwrap().1;
    assert!(!setup.contains("Change golden_patch.py"), "{md}");
    assert!(
        reward.contains("reward.py is unusable on V_gold")
            && reward.contains("No module named 'helpers'"),
        "{md}"
    );
    // A zero on V_gold with no unmet component named is not blamed on the golden patch either.
    obs.gold_runs = vec![scored(0.0, vec![]), scored(0.0, vec![])];
    let md = render_review(&obs, &evaluate(&obs), "x");
    let (setup, reward) = md.split_once("## Feedback for Reward-Gen").unwrap();
    assert!(!setup.contains("Unmet on V_gold"), "{md}");
    assert!(reward.contains("without naming an unmet component"), "{md}");
}
