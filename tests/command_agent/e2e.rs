//! The command agents inside the real agreement loop: real state-API server, real sandbox,
//! real store, the harness's own [`RoundProbe`] feeding the Discriminator's state snapshots.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tuplewright::engine::agents::command::{CommandDiscriminator, CommandGenerator};
use tuplewright::engine::harness::task::LoopRuntime;
use tuplewright::engine::harness::{run_task, Bus, Fleet, LoopConfig, TaskOutcome};
use tuplewright::engine::sandbox::{Isolation, SandboxConfig};
use tuplewright::engine::store::{Labels, Store, TaskRecord};

use super::agents::{GOLDEN_OK, PRELUDE, REWARD_OK, SETUP};
use super::support::{prompts, Rig};

const TASK: &str = "slack_release_topic_001";

/// Runs one task through the loop with command agents; returns the outcome and the stored
/// (generator, discriminator) agent names of round 1.
pub fn run_loop(rig: &Rig) -> (TaskOutcome, String) {
    for (name, text) in [
        ("e2e_setup.py", format!("{PRELUDE}{SETUP}")),
        ("e2e_golden.py", format!("{PRELUDE}{GOLDEN_OK}")),
        ("e2e_reward.py", format!("{PRELUDE}{REWARD_OK}")),
    ] {
        std::fs::write(rig.tools.join(name), text).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("t.db"), Duration::from_secs(5)).unwrap();
    let task = TaskRecord {
        task_id: TASK.into(),
        instruction: "Set the topic of #release to announce the Release 2.4 freeze.".into(),
        context: "Channel #release exists with topic 'Planning'.".into(),
        labels: Labels {
            apps: vec!["team-chat".into()],
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
    let g = CommandGenerator::new(
        rig.config(
            "copy",
            &[
                "e2e_setup.py:initial_setup.py",
                "e2e_golden.py:golden_patch.py",
            ],
        ),
        prompts(),
    )
    .unwrap();
    let d = CommandDiscriminator::new(
        rig.config(
            "copy_if_gold",
            &["Release 2.4 freeze", "e2e_reward.py:reward.py"],
        ),
        prompts(),
    )
    .unwrap();
    let cancel = AtomicBool::new(false);
    let (cfg, sandbox) = (LoopConfig::default(), SandboxConfig::default());
    let lrt = LoopRuntime {
        rt: rt.handle().clone(),
        fleet: &fleet,
        cfg: &cfg,
        sandbox: &sandbox,
        isolation: Isolation::Required,
        generator: &g,
        discriminator: &d,
        cancel: &cancel,
    };
    let out = run_task(&lrt, &bus, TASK);
    let rounds = bus.read(|s| s.rounds(TASK)).unwrap();
    let review = rounds
        .first()
        .map(|r| r.round.review_md.clone())
        .unwrap_or_default();
    rt.block_on(fleet.shutdown());
    (out, review)
}
