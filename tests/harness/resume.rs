//! Resume continues a half-done task (issue 13): after an interruption the loop goes on from the
//! round after the last recorded one, with that round's REVIEW.md, and K counts every round.

use std::sync::Mutex;

use super::agents::*;
use super::rig;
use tuplewright::engine::agents::*;
use tuplewright::engine::harness::{LoopConfig, TaskOutcome};
use tuplewright::engine::sandbox::SandboxConfig;

/// A Generator that always writes the wrong golden patch, goes down on chosen calls (like a
/// provider outage), and remembers whether each call got a REVIEW.md.
struct Unlucky {
    down_on: Vec<usize>,
    calls: Mutex<Vec<Option<String>>>,
}

impl Generator for Unlucky {
    fn name(&self) -> String {
        "test:unlucky".into()
    }
    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        let mut calls = self.calls.lock().unwrap();
        calls.push(input.previous_review.map(str::to_string));
        if self.down_on.contains(&calls.len()) {
            return Err(AgentError::Infra("HTTP 503 after 5 retries".into()));
        }
        Ok(GeneratorOutput {
            initial_setup: format!("{PRELUDE}{SETUP}"),
            golden_patch: format!("{PRELUDE}{GOLDEN_WRONG}"),
            usage: Usage::default(),
        })
    }
}

#[test]
fn an_interrupted_task_continues_from_its_last_round_with_its_review() {
    let rig = rig();
    let cfg = LoopConfig::default();
    let down = Unlucky {
        down_on: vec![2],
        calls: Mutex::new(Vec::new()),
    };
    let out = rig.run(
        &down,
        &TestDisc { body: REWARD_OK },
        &cfg,
        &SandboxConfig::default(),
    );
    assert!(matches!(out, TaskOutcome::Infra(_)), "{out:?}");
    assert_eq!(rig.status(), "pending");
    let first_review = rig.rounds()[0].round.review_md.clone();
    // TestGen gets the golden patch right once it has seen a REVIEW.md: a resume that restarted
    // from round 1 would give it none and spend a round more.
    let out = rig.run(
        &TestGen { wrong_first: true },
        &TestDisc { body: REWARD_OK },
        &cfg,
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 2 });
    let rounds = rig.rounds();
    let numbers: Vec<_> = rounds.iter().map(|r| r.round.round_no).collect();
    assert_eq!(numbers, [Some(1), Some(2)]);
    assert!(first_review.contains("## Verdict: FAIL"), "{first_review}");
}

#[test]
fn k_counts_every_round_a_task_has_had_across_interruptions() {
    let rig = rig();
    let cfg = LoopConfig {
        max_rounds: 3,
        ..LoopConfig::default()
    };
    let g = Unlucky {
        down_on: vec![3],
        calls: Mutex::new(Vec::new()),
    };
    let d = TestDisc { body: REWARD_OK };
    let out = rig.run(&g, &d, &cfg, &SandboxConfig::default());
    assert!(matches!(out, TaskOutcome::Infra(_)), "{out:?}");
    assert_eq!(rig.rounds().len(), 2);
    let out = rig.run(&g, &d, &cfg, &SandboxConfig::default());
    assert!(
        matches!(out, TaskOutcome::Rejected { rounds: 3, .. }),
        "{out:?}"
    );
    assert_eq!(rig.rounds().len(), 3, "K = 3 in all, not 3 more");
    assert_eq!(rig.status(), "loop_failed");
    // Call 4 (round 3) continued with round 2's REVIEW.md.
    let calls = g.calls.lock().unwrap();
    let round2_review = rig.rounds()[1].round.review_md.clone();
    assert_eq!(calls.len(), 4);
    assert_eq!(calls[3].as_deref(), Some(round2_review.as_str()));
    // A task whose loop had finished starts a fresh attempt when run again.
    drop(calls);
    let out = rig.run(
        &TestGen { wrong_first: false },
        &d,
        &cfg,
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 1 });
    assert_eq!(rig.rounds().len(), 4);
}
