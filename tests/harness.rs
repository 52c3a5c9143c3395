//! End-to-end tests of the agreement loop harness: real state-API server, real bubblewrap sandbox,
//! real scanner and store, with small fixed agents (tests/harness/agents.rs).

pub(crate) mod agents;
// live jobs
mod jobs;
// resuming half-done tasks
mod resume;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use agents::*;
use tuplewright::engine::agents::{Discriminator, Generator};
use tuplewright::engine::harness::task::LoopRuntime;
use tuplewright::engine::harness::{run_task, Bus, Fleet, LoopConfig, TaskOutcome};
use tuplewright::engine::sandbox::{Isolation, SandboxConfig};
use tuplewright::engine::store::{Labels, Store, TaskRecord};

struct Rig {
    rt: tokio::runtime::Runtime,
    fleet: Option<Fleet>,
    bus: Bus,
    _dir: tempfile::TempDir,
}

fn rig() -> Rig {
    rig_with(&["team-chat"])
}

fn rig_with(apps: &[&str]) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("t.db"), Duration::from_secs(5)).unwrap();
    let task = TaskRecord {
        task_id: "slack_release_topic_001".into(),
        instruction: "Set the topic of #release to announce the Release 2.4 freeze.".into(),
        context: "Channel #release exists with topic 'Planning'.".into(),
        labels: Labels {
            apps: apps.iter().map(|a| a.to_string()).collect(),
            difficulty: Some("easy".into()),
            ..Labels::default()
        },
        app_type: None,
        original_json: serde_json::json!({}),
        origin: "test".into(),
    };
    store.write(|tx| tx.upsert_task(&task)).unwrap();
    let bus = Bus::new(store, vec![]).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fleet = rt.block_on(Fleet::start(&dir.path().join("work"))).unwrap();
    Rig {
        rt,
        fleet: Some(fleet),
        bus,
        _dir: dir,
    }
}

impl Rig {
    fn run(
        &self,
        g: &dyn Generator,
        d: &dyn Discriminator,
        cfg: &LoopConfig,
        sandbox: &SandboxConfig,
    ) -> TaskOutcome {
        let cancel = AtomicBool::new(false);
        let rt = LoopRuntime {
            rt: self.rt.handle().clone(),
            fleet: self.fleet.as_ref().unwrap(),
            cfg,
            sandbox,
            isolation: Isolation::Required,
            generator: g,
            discriminator: d,
            cancel: &cancel,
        };
        run_task(&rt, &self.bus, "slack_release_topic_001")
    }
    fn status(&self) -> String {
        self.bus
            .read(|s| s.effective_status("slack_release_topic_001"))
            .unwrap()
    }
    fn rounds(&self) -> Vec<tuplewright::engine::store::StoredRound> {
        self.bus
            .read(|s| s.rounds("slack_release_topic_001"))
            .unwrap()
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        if let Some(f) = self.fleet.take() {
            self.rt.block_on(f.shutdown());
        }
    }
}

#[test]
fn agreeing_agents_are_accepted_in_round_one_and_everything_is_stored() {
    let rig = rig();
    let out = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc { body: REWARD_OK },
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 1 });
    assert_eq!(rig.status(), "loop_accepted");
    let rounds = rig.rounds();
    assert_eq!(rounds.len(), 1);
    let r = &rounds[0].round;
    assert_eq!(r.verdict, "pass");
    assert!(r.review_md.contains("## Verdict: PASS"), "{}", r.review_md);
    assert_eq!(
        r.reward_runs.len(),
        7,
        "two runs on each endpoint, one per probe"
    );
    assert!(
        r.review_md
            .contains("| probe:destructive | PASS | 0.00 | V_init with team-chat.channels wiped"),
        "{}",
        r.review_md
    );
    let gold: Vec<_> = r
        .reward_runs
        .iter()
        .filter(|x| x.endpoint == "golden")
        .collect();
    assert!(gold.iter().all(|x| x.reward == Some(1.0)));
    assert!(r
        .reward_runs
        .iter()
        .filter(|x| x.endpoint == "initial")
        .all(|x| x.reward == Some(0.0)));
    let events = rig.bus.read(|s| s.events_after(0, 1000)).unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    assert!(
        kinds.contains(&"round.recorded") && kinds.contains(&"round.phase"),
        "{kinds:?}"
    );
}

#[test]
fn a_wrong_golden_patch_fails_c3_then_converges_after_the_review() {
    let rig = rig();
    let out = rig.run(
        &TestGen { wrong_first: true },
        &TestDisc { body: REWARD_OK },
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 2 });
    let rounds = rig.rounds();
    assert_eq!(rounds.len(), 2);
    let first = &rounds[0].round.review_md;
    assert!(first.contains("## Verdict: FAIL"));
    assert!(
        first.contains("| C3 | r(gold) = 1.0 | FAIL | r(gold) = 0.5000"),
        "{first}"
    );
    assert!(
        first.contains("`topic names release 2.4` (score 0.00"),
        "{first}"
    );
}

#[test]
fn a_non_deterministic_reward_is_rejected_with_that_reason() {
    let rig = rig();
    // Decoys on the host that a leaky sandbox would expose: a Generator script under /tmp (the
    // store of this test also lives under /tmp).
    let decoy = tempfile::tempdir().unwrap();
    std::fs::write(decoy.path().join("initial_setup.py"), "secret").unwrap();
    assert!(rig._dir.path().join("t.db").is_file());
    let cfg = LoopConfig {
        max_rounds: 1,
        reward_runs: 12,
        ..LoopConfig::default()
    };
    let out = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc { body: REWARD_FLAKY },
        &cfg,
        &SandboxConfig::default(),
    );
    assert!(
        matches!(out, TaskOutcome::Rejected { rounds: 1, .. }),
        "{out:?}"
    );
    assert_eq!(rig.status(), "loop_failed");
    let review = &rig.rounds()[0].round.review_md;
    assert!(review.contains("non-deterministic"), "{review}");
}

#[test]
fn the_reward_side_cannot_see_generator_scripts_or_the_host() {
    let rig = rig();
    let cfg = LoopConfig {
        max_rounds: 1,
        ..LoopConfig::default()
    };
    let _ = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc { body: REWARD_SNOOP },
        &cfg,
        &SandboxConfig::default(),
    );
    let rounds = rig.rounds();
    let runs = &rounds[0].round.reward_runs;
    assert!(!runs.is_empty());
    for r in runs {
        assert!(
            r.stdout.contains("FOUND: []"),
            "the reward saw host files: {}",
            r.stdout
        );
    }
}

#[test]
fn a_provider_outage_is_infra_and_leaves_the_task_resumable() {
    let rig = rig();
    let out = rig.run(
        &DownGen,
        &TestDisc { body: REWARD_OK },
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    assert!(
        matches!(out, TaskOutcome::Infra(ref m) if m.contains("503")),
        "{out:?}"
    );
    assert_eq!(rig.status(), "pending");
    assert!(
        rig.rounds().is_empty(),
        "an infra failure must not be recorded as a failed round"
    );
}

#[test]
fn a_missing_sandbox_is_infra_not_a_condition_failure() {
    let rig = rig();
    let sandbox = SandboxConfig {
        bwrap_path: "/nonexistent/bwrap".into(),
        ..SandboxConfig::default()
    };
    let out = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc { body: REWARD_OK },
        &LoopConfig::default(),
        &sandbox,
    );
    assert!(
        matches!(out, TaskOutcome::Infra(ref m) if m.contains("bubblewrap")),
        "{out:?}"
    );
    assert_eq!(rig.status(), "pending");
    assert!(rig.rounds().is_empty());
}

#[test]
fn a_reward_failing_the_probes_in_the_loop_goes_back_to_the_discriminator() {
    let rig = rig();
    let cfg = LoopConfig {
        max_rounds: 2,
        ..LoopConfig::default()
    };
    let out = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc {
            body: REWARD_ABSENCE,
        },
        &cfg,
        &SandboxConfig::default(),
    );
    let TaskOutcome::Rejected { rounds, failing } = out else {
        panic!("{out:?}");
    };
    assert_eq!(rounds, 2);
    assert_eq!(
        failing,
        ["probe:noop", "probe:empty_state", "probe:destructive"]
    );
    assert_eq!(rig.status(), "loop_failed");
    let stored = rig.rounds();
    let review = &stored[0].round.review_md;
    assert!(review.contains("| C3 | r(gold) = 1.0 | PASS |"), "{review}");
    assert!(review.contains("| probe:noop | FAIL | 1.00 |"), "{review}");
    let (setup, disc) = review.split_once("## Feedback for Reward-Gen").unwrap();
    assert!(
        disc.contains("Probe `probe:destructive` failed"),
        "{review}"
    );
    assert!(!setup.contains("Probe `"), "{review}");
    // The probe runs are stored with the round, one per probe.
    let probes: Vec<&str> = stored[0]
        .round
        .reward_runs
        .iter()
        .filter(|r| r.endpoint.starts_with("probe:"))
        .map(|r| r.endpoint.as_str())
        .collect();
    assert_eq!(
        probes,
        ["probe:noop", "probe:empty_state", "probe:destructive"]
    );
    assert_eq!(
        stored[0]
            .round
            .reward_runs
            .iter()
            .filter(|r| r.endpoint == "probe:noop")
            .map(|r| r.reward)
            .collect::<Vec<_>>(),
        [Some(1.0)]
    );
}

#[test]
fn verify_replays_a_stored_tuple_without_agents() {
    let rig = rig();
    let out = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc { body: REWARD_OK },
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 1 });
    let cancel = AtomicBool::new(false);
    let cfg = LoopConfig::default();
    let sandbox = SandboxConfig::default();
    // The agents given here must never be called: verify replays the stored scripts.
    let down = DownGen;
    let rt = LoopRuntime {
        rt: rig.rt.handle().clone(),
        fleet: rig.fleet.as_ref().unwrap(),
        cfg: &cfg,
        sandbox: &sandbox,
        isolation: Isolation::Required,
        generator: &down,
        discriminator: &TestDisc { body: REWARD_FLAKY },
        cancel: &cancel,
    };
    let v =
        tuplewright::engine::harness::verify::verify_task(&rt, &rig.bus, "slack_release_topic_001")
            .unwrap();
    assert!(v.ok, "{v:?}");
    assert_eq!(
        v.noop_score,
        Some(0.0),
        "the default seed has no #release channel"
    );
    let rounds = rig.rounds();
    assert_eq!(rounds.len(), 2);
    assert_eq!(rounds[1].round.source, "verify");
    assert_eq!(
        rig.status(),
        "loop_accepted",
        "verify does not change the status"
    );
}

#[test]
fn a_cross_app_task_reaches_every_app_at_its_port_and_the_files_home() {
    let rig = rig_with(&["team-chat", "issue-tracker", "files"]);
    let out = rig.run(
        &CrossGen,
        &CrossDisc,
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    let review = rig
        .rounds()
        .first()
        .map(|r| r.round.review_md.clone())
        .unwrap_or_default();
    assert_eq!(out, TaskOutcome::Accepted { rounds: 1 }, "{review}");
}

#[test]
fn a_round_stores_initial_and_golden_states_whose_diff_is_what_the_reward_checks() {
    use tuplewright::engine::env::{diff::diff, mask::Mask};
    use tuplewright::engine::store::StateEndpoint;
    let rig = rig();
    let out = rig.run(
        &TestGen { wrong_first: false },
        &TestDisc { body: REWARD_OK },
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 1 });
    let round_id = rig.rounds()[0].id;
    let states = rig.bus.read(|s| s.round_states(round_id)).unwrap();
    let get = |ep| {
        states
            .iter()
            .find(|s| s.endpoint == ep && s.env == "team-chat")
            .unwrap_or_else(|| panic!("no {ep:?} team-chat state in {states:?}"))
    };
    let (init, gold) = (get(StateEndpoint::Initial), get(StateEndpoint::Golden));
    assert_eq!(states.len(), 2, "one web app, two endpoints");
    assert!(
        init.volatile.iter().any(|g| g == "**.lastViewedAt"),
        "{:?}",
        init.volatile
    );
    // What reward.py reads: #release's topic, 'Planning' on V_init, the freeze on V_gold.
    let topic = |v: &serde_json::Value| {
        v["channels"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["name"] == "release"))
            .map(|c| c["topic"].clone())
    };
    assert_eq!(topic(&init.state), Some(serde_json::json!("Planning")));
    assert_eq!(
        topic(&gold.state),
        Some(serde_json::json!("Release 2.4 freeze"))
    );
    let mask = Mask::new(&init.volatile).unwrap();
    let d = diff(&init.state, &gold.state, &mask);
    assert_eq!(
        d.state_diff.keys().collect::<Vec<_>>(),
        ["channels"],
        "{:?}",
        d.state_diff
    );
    let changed: Vec<_> = d
        .changes
        .iter()
        .filter(|c| c["op"] == "changed")
        .flat_map(|c| c["fields"].as_object().cloned().unwrap_or_default())
        .collect();
    assert_eq!(
        changed,
        [(
            "topic".to_string(),
            serde_json::json!({"old": "Planning", "new": "Release 2.4 freeze"})
        )]
    );
}

#[test]
fn a_files_domain_round_stores_the_home_directory_state() {
    let rig = rig_with(&["team-chat", "issue-tracker", "files"]);
    let out = rig.run(
        &CrossGen,
        &CrossDisc,
        &LoopConfig::default(),
        &SandboxConfig::default(),
    );
    assert_eq!(out, TaskOutcome::Accepted { rounds: 1 });
    let round_id = rig.rounds()[0].id;
    let states = rig.bus.read(|s| s.round_states(round_id)).unwrap();
    let envs: Vec<(&str, &str)> = states
        .iter()
        .map(|s| (s.endpoint.as_str(), s.env.as_str()))
        .collect();
    assert_eq!(
        envs,
        [
            ("initial", "files"),
            ("initial", "issue-tracker"),
            ("initial", "team-chat"),
            ("golden", "files"),
            ("golden", "issue-tracker"),
            ("golden", "team-chat"),
        ]
    );
    let files = &states[0].state;
    assert!(
        files["Documents/project-plan.md"]["sha256"].is_string(),
        "{files}"
    );
    assert_eq!(
        states[0].state, states[3].state,
        "the golden patch leaves the files alone"
    );
    // The reward looks for a new issue in the tracker's state_diff: so does the stored diff.
    let mask = tuplewright::engine::env::mask::Mask::new(&states[1].volatile).unwrap();
    let d = tuplewright::engine::env::diff::diff(&states[1].state, &states[4].state, &mask);
    let new = d.state_diff["issues"]["new"].as_array().unwrap();
    assert!(new.iter().any(|i| i["key"] == "WEB-999"), "{d:?}");
}
