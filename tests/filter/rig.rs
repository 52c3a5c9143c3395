//! A store with tuples produced by the real agreement loop (real state-API server, real bubblewrap
//! sandbox) using the fixed agents of tests/harness/agents.rs.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tuplewright::engine::harness::task::LoopRuntime;
use tuplewright::engine::harness::{run_task, Bus, Fleet, LoopConfig, TaskOutcome};
use tuplewright::engine::sandbox::{Isolation, SandboxConfig};
use tuplewright::engine::store::{Labels, Store, TaskRecord};

use crate::filter::agents::{TestDisc, TestGen, REWARD_OK};

pub struct Rig {
    pub rt: tokio::runtime::Runtime,
    pub fleet: Option<Fleet>,
    pub bus: Bus,
    pub db: PathBuf,
    pub cfg: LoopConfig,
    pub sandbox: SandboxConfig,
    pub _dir: tempfile::TempDir,
}

pub const INSTRUCTION: &str = "Set the topic of #release to announce the Release 2.4 freeze.";

/// `n` tasks, each run through the loop until loop_accepted.
pub fn rig(ids: &[&str]) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut store = Store::open(&db, Duration::from_secs(10)).unwrap();
    for id in ids {
        let task = TaskRecord {
            task_id: id.to_string(),
            instruction: INSTRUCTION.into(),
            context: "Channel #release exists with topic 'Planning'.".into(),
            labels: Labels {
                apps: vec!["team-chat".into()],
                difficulty: Some("easy".into()),
                domain: Some("team-chat".into()),
                ..Labels::default()
            },
            app_type: None,
            original_json: serde_json::json!({}),
            origin: "test".into(),
        };
        store.write(|tx| tx.upsert_task(&task)).unwrap();
    }
    drop(store);
    let rig = rig_on(dir, db);
    for id in ids {
        let out = rig.with_runtime(|rt| run_task(rt, &rig.bus, id));
        assert_eq!(out, TaskOutcome::Accepted { rounds: 1 }, "{id}");
    }
    rig
}

/// A rig over the store `db` in `dir` as it is (its tuples built elsewhere, e.g. by
/// `tuplewright run`).
pub fn rig_on(dir: tempfile::TempDir, db: PathBuf) -> Rig {
    let store = Store::open(&db, Duration::from_secs(10)).unwrap();
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
        db,
        cfg: LoopConfig::default(),
        sandbox: SandboxConfig::default(),
        _dir: dir,
    }
}

impl Rig {
    pub fn with_runtime<T>(&self, f: impl FnOnce(&LoopRuntime<'_>) -> T) -> T {
        let cancel = AtomicBool::new(false);
        let (g, d) = (TestGen { wrong_first: false }, TestDisc { body: REWARD_OK });
        let rt = LoopRuntime {
            rt: self.rt.handle().clone(),
            fleet: self.fleet.as_ref().unwrap(),
            cfg: &self.cfg,
            sandbox: &self.sandbox,
            isolation: Isolation::Required,
            generator: &g,
            discriminator: &d,
            cancel: &cancel,
        };
        f(&rt)
    }

    /// Another connection to the same store (as another process would have).
    pub fn store(&self) -> Store {
        Store::open(&self.db, Duration::from_secs(10)).unwrap()
    }

    pub fn status(&self, id: &str) -> String {
        self.store().effective_status(id).unwrap()
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        if let Some(f) = self.fleet.take() {
            self.rt.block_on(f.shutdown());
        }
    }
}

/// A partial agent: names Release 2.4 but not the freeze, so the reward gives 0.5.
pub const PARTIAL_AGENT: &str = r#"python3 -c "
import json, os, urllib.request
body = json.dumps({'action': 'merge', 'state': {'channels': [{'id': 'C99', 'name': 'release', 'topic': 'Release 2.4', 'members': ['U01']}]}}).encode()
req = urllib.request.Request(os.environ['TW_STATE_URL'] + '/post?sid=' + os.environ['TW_SID'], data=body, headers={'Content-Type': 'application/json'})
urllib.request.urlopen(req).read()
assert os.environ['TW_INSTRUCTION'].startswith('Set the topic')
""#;
