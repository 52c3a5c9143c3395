//! Job control of a batch (pause after the tasks in flight, resume, cancel that abandons the rounds in
//! flight) and the events of a run (`job.*`, `round.check`, `reward.scored`), on the real harness:
//! state-API server, bubblewrap sandbox, store. A gate in front of the test Generator holds a task in
//! flight until the test lets it go, so the interleavings are deterministic.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::agents::*;
use tuplewright::engine::agents::*;
use tuplewright::engine::harness::task::LoopRuntime;
use tuplewright::engine::harness::{
    run_batch_controlled, BatchOptions, Bus, Fleet, JobControl, JobPhase, LoopConfig,
};
use tuplewright::engine::sandbox::{Isolation, SandboxConfig};
use tuplewright::engine::store::{Event, Labels, Store, TaskRecord};

/// Lets `generate` calls through one at a time when the test opens the gate.
struct GatedGen {
    inner: TestGen,
    state: Mutex<(usize, usize)>, // (calls started, calls allowed)
    cv: Condvar,
}

impl GatedGen {
    fn new() -> Self {
        GatedGen {
            inner: TestGen { wrong_first: false },
            state: Mutex::new((0, 0)),
            cv: Condvar::new(),
        }
    }
    fn allow(&self, n: usize) {
        self.state.lock().unwrap().1 += n;
        self.cv.notify_all();
    }
    fn started(&self) -> usize {
        self.state.lock().unwrap().0
    }
    fn wait_started(&self, n: usize) {
        let t0 = Instant::now();
        while self.started() < n {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "generate call {n} never came"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Generator for GatedGen {
    fn name(&self) -> String {
        "test:gated".into()
    }
    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        let mut s = self.state.lock().unwrap();
        s.0 += 1;
        let me = s.0;
        let (s, _) = self
            .cv
            .wait_timeout_while(s, Duration::from_secs(60), |s| s.1 < me)
            .unwrap();
        drop(s);
        self.inner.generate(input)
    }
}

const IDS: [&str; 3] = ["job_task_a", "job_task_b", "job_task_c"];

fn store_with_tasks(dir: &std::path::Path) -> Store {
    let mut store = Store::open(&dir.join("t.db"), Duration::from_secs(5)).unwrap();
    for id in IDS {
        let task = TaskRecord {
            task_id: id.into(),
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
    }
    store
}

fn kinds(events: &[Event]) -> Vec<&str> {
    events.iter().map(|e| e.kind.as_str()).collect()
}

fn wait_for(bus: &Bus, what: &str, pred: impl Fn(&[Event]) -> bool) {
    let t0 = Instant::now();
    loop {
        let ev = bus.read(|s| s.events_after(0, 100_000)).unwrap();
        if pred(&ev) {
            return;
        }
        assert!(t0.elapsed() < Duration::from_secs(90), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a one-worker batch over [`IDS`] on a thread while `steer` pokes the job.
fn with_job(steer: impl FnOnce(&Bus, &JobControl, &GatedGen)) -> (Bus, Vec<Event>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let bus = Bus::new(store_with_tasks(dir.path()), vec![]).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fleet = rt.block_on(Fleet::start(&dir.path().join("work"))).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let control = JobControl::new("run-test0001", flag.clone());
    let gen = GatedGen::new();
    let disc = TestDisc { body: REWARD_OK };
    let (cfg, sandbox) = (LoopConfig::default(), SandboxConfig::default());
    let ids: Vec<String> = IDS.iter().map(|s| s.to_string()).collect();
    let summary = std::thread::scope(|s| {
        let runner = s.spawn(|| {
            let lrt = LoopRuntime {
                rt: rt.handle().clone(),
                fleet: &fleet,
                cfg: &cfg,
                sandbox: &sandbox,
                isolation: Isolation::Required,
                generator: &gen,
                discriminator: &disc,
                cancel: &flag,
            };
            run_batch_controlled(
                &lrt,
                &bus,
                &ids,
                &BatchOptions::jobs(1),
                &control,
                &|_, _| {},
            )
        });
        steer(&bus, &control, &gen);
        runner.join().unwrap()
    });
    rt.block_on(fleet.shutdown());
    let events = bus.read(|s| s.events_after(0, 100_000)).unwrap();
    let problems = bus.read(|s| s.check_integrity()).unwrap();
    assert!(problems.is_empty(), "store integrity: {problems:?}");
    let done = summary.accepted.len();
    drop(dir);
    (bus, events, done)
}

#[test]
fn pause_finishes_the_task_in_flight_and_starts_none_until_resumed() {
    let (bus, events, accepted) = with_job(|bus, control, gen| {
        gen.wait_started(1);
        assert!(control.pause(bus).unwrap(), "a running job pauses");
        assert!(!control.pause(bus).unwrap(), "pausing twice is a no-op");
        assert_eq!(control.phase(), JobPhase::Paused);
        gen.allow(1);
        wait_for(bus, "first task finished", |ev| {
            ev.iter().any(|e| e.kind == "job.task")
        });
        // Paused: no second task starts, however long we wait.
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(gen.started(), 1, "a paused job started a task");
        let status = bus.read(|s| s.effective_status(IDS[1])).unwrap();
        assert_eq!(status, "pending");
        assert!(control.resume(bus).unwrap());
        gen.allow(2);
    });
    assert_eq!(accepted, 3);
    let k = kinds(&events);
    let pos = |kind: &str| k.iter().position(|x| *x == kind).unwrap();
    assert!(pos("job.started") < pos("job.paused"));
    assert!(pos("job.paused") < pos("job.task"), "{k:?}");
    assert!(pos("job.task") < pos("job.resumed"), "{k:?}");
    assert_eq!(k.iter().filter(|x| **x == "job.task").count(), 3);
    assert_eq!(*k.last().unwrap(), "job.finished");
    let fin = events.last().unwrap();
    assert_eq!(fin.payload["accepted"], 3);
    assert_eq!(fin.payload["cancelled"], 0);
    let paused = events.iter().find(|e| e.kind == "job.paused").unwrap();
    assert_eq!(paused.payload["in_flight"], 1);
    assert_eq!(paused.payload["total"], 3);
    drop(bus);
}

#[test]
fn cancel_abandons_the_round_in_flight_and_leaves_every_task_pending() {
    let (bus, events, accepted) = with_job(|bus, control, gen| {
        gen.wait_started(1);
        assert!(control.cancel(bus).unwrap());
        assert!(!control.cancel(bus).unwrap(), "cancel is recorded once");
        assert!(
            !control.resume(bus).unwrap(),
            "a cancelled job does not resume"
        );
        gen.allow(3);
    });
    assert_eq!(accepted, 0);
    for id in IDS {
        let (status, rounds) = bus.read(|s| (s.effective_status(id), s.rounds(id)));
        assert_eq!(status.unwrap(), "pending", "{id}");
        assert!(
            rounds.unwrap().is_empty(),
            "{id}: a partial round was stored"
        );
    }
    let k = kinds(&events);
    assert!(k.contains(&"task.interrupted"), "{k:?}");
    assert_eq!(k.iter().filter(|x| **x == "job.cancelled").count(), 1);
    let fin = events.last().unwrap();
    assert_eq!(fin.kind, "job.finished");
    assert_eq!(fin.payload["cancelled"], 3, "{}", fin.payload);
    // The cancelled round reported no check (it never got that far) and stored nothing.
    assert!(!k.contains(&"round.recorded"));
}

#[test]
fn a_round_reports_each_check_and_reward_run_before_it_is_recorded() {
    let (_bus, events, accepted) = with_job(|_, _, gen| gen.allow(3));
    assert_eq!(accepted, 3);
    let task: Vec<&Event> = events
        .iter()
        .filter(|e| e.task_id.as_deref() == Some(IDS[0]))
        .collect();
    let recorded = task
        .iter()
        .position(|e| e.kind == "round.recorded")
        .unwrap();
    let checks: Vec<&str> = task[..recorded]
        .iter()
        .filter(|e| e.kind == "round.check")
        .map(|e| e.payload["check"].as_str().unwrap())
        .collect();
    // In the order the harness settles them: scripts, then the scan, then gold, then init, then
    // the probes.
    assert_eq!(
        checks,
        [
            "C1",
            "C2",
            "C5",
            "C3",
            "C4",
            "probe:noop",
            "probe:empty_state",
            "probe:destructive"
        ]
    );
    assert!(task[..recorded]
        .iter()
        .filter(|e| e.kind == "round.check")
        .all(|e| e.payload["status"] == "pass" && e.payload["round"] == 1));
    let scored: Vec<(String, f64)> = task[..recorded]
        .iter()
        .filter(|e| e.kind == "reward.scored")
        .map(|e| {
            (
                e.payload["endpoint"].as_str().unwrap().to_string(),
                e.payload["reward"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        scored,
        [
            ("gold".to_string(), 1.0),
            ("gold".to_string(), 1.0),
            ("init".to_string(), 0.0),
            ("init".to_string(), 0.0)
        ]
    );
    // Modest volume: 5 checks + 3 probe checks + 4 reward runs per round.
    let extra = events
        .iter()
        .filter(|e| e.kind == "round.check" || e.kind == "reward.scored")
        .count();
    assert_eq!(extra, 3 * 12);
}
