//! Driving runs from the workbench: the Live screen built from events (C1–C5 from `round.check`,
//! rewards from `reward.scored`, the job header and its ETA from `job.*`), the job keys and the quit
//! guard, esc-then-key arriving as alt-key, the real job runner (scripted agents, real sandbox) that
//! runs, pauses and cancels, and a tmux test that watches a headless run of another process live.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tuplewright::engine::bundle::import::import_paths;
use tuplewright::engine::config::Config;
use tuplewright::engine::rollout::spec::PolicySpec;
use tuplewright::engine::sandbox::Isolation;
use tuplewright::engine::store::{Event, Store};
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::{DataUpdate, EngineCommand, TaskRow};
use tuplewright::tui::jobs::{JobRunner, JobSettings, JobUpdate};
use tuplewright::tui::keymap::{Code, Key, Keymap};
use tuplewright::tui::model::live_job::JobState;
use tuplewright::tui::model::{Model, Msg};

use super::fixture::{ev, feed, keys, loaded_model, pump, pump_events, screen_text};

#[test]
fn live_fills_the_checklist_from_check_events_before_the_round_is_recorded() {
    let mut m = Model::new(Keymap::default(), false);
    m.screen = Screen::Live;
    let t = Some("task_a");
    let check = |seq, c: &str, status: &str| {
        ev(
            seq,
            2,
            "round.check",
            t,
            json!({"round": 1, "check": c, "status": status, "pass": status == "pass", "detail": "x"}),
        )
    };
    feed(
        &mut m,
        vec![
            ev(
                1,
                0,
                "round.phase",
                t,
                json!({"phase": "generate", "detail": {"round": 1}}),
            ),
            check(2, "C1", "pass"),
            check(3, "C2", "pass"),
        ],
    );
    assert_eq!(
        m.live.tasks[0].checks,
        [Some(true), Some(true), None, None, None]
    );
    feed(
        &mut m,
        vec![
            check(4, "C5", "pass"),
            ev(
                5,
                3,
                "reward.scored",
                t,
                json!({"round": 1, "endpoint": "gold", "run": 1, "reward": 1.0}),
            ),
            ev(
                6,
                3,
                "reward.scored",
                t,
                json!({"round": 1, "endpoint": "gold", "run": 2, "reward": 0.5}),
            ),
            check(7, "C3", "fail"),
            ev(
                8,
                4,
                "reward.scored",
                t,
                json!({"round": 1, "endpoint": "init", "run": 1, "reward": null, "error": "crashed"}),
            ),
            check(9, "C4", "not_run"),
        ],
    );
    let task = &m.live.tasks[0];
    assert_eq!(
        task.checks,
        [Some(true), Some(true), Some(false), None, Some(true)]
    );
    assert_eq!(task.r_gold, Some(0.5), "lowest r(gold)");
    assert_eq!(task.r_init, None, "an errored run is not a reward");
    let text = screen_text(&m, 120, 30);
    assert!(text.contains("✔✔✘·✔"), "{text}");
    // The next round starts with an empty checklist.
    feed(
        &mut m,
        vec![ev(
            10,
            5,
            "round.phase",
            t,
            json!({"phase": "generate", "detail": {"round": 2}}),
        )],
    );
    assert_eq!(m.live.tasks[0].checks, [None; 5]);
    assert_eq!(m.live.tasks[0].round, 2);
}

#[test]
fn job_header_shows_state_throughput_and_eta_from_median_task_time() {
    let mut m = Model::new(Keymap::default(), false);
    m.update(Msg::Resize(100, 30));
    m.screen = Screen::Live;
    let job = |seq, secs, kind: &str, extra: serde_json::Value| {
        let mut p = json!({"job": "run-0000abcd"});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        ev(seq, secs, kind, None, p)
    };
    feed(
        &mut m,
        vec![
            job(
                1,
                0,
                "job.started",
                json!({"kind": "run", "total": 10, "jobs": 2}),
            ),
            job(
                2,
                10,
                "job.task",
                json!({"outcome": "accepted", "secs": 10.0, "done": 1, "total": 10}),
            ),
            job(
                3,
                20,
                "job.task",
                json!({"outcome": "rejected", "secs": 30.0, "done": 2, "total": 10}),
            ),
            job(
                4,
                25,
                "job.task",
                json!({"outcome": "infra", "secs": 1.0, "done": 3, "total": 10}),
            ),
            job(
                5,
                30,
                "job.task",
                json!({"outcome": "accepted", "secs": 20.0, "done": 4, "total": 10}),
            ),
        ],
    );
    let j = m.live.job.clone().unwrap();
    // Median of 10, 30, 20 (infra excluded) = 20 s × 6 remaining / 2 workers = 60 s.
    assert_eq!(j.eta_secs(), Some(60.0));
    assert_eq!(j.per_minute(), Some(8.0), "4 tasks in 30 s");
    let text = screen_text(&m, 100, 30);
    assert!(
        text.contains("job run-0000abcd ▶ running · 4/10 done · ×2 ·   8.0 tasks/min · ETA 1m00s"),
        "{text}"
    );
    feed(
        &mut m,
        vec![job(
            6,
            31,
            "job.paused",
            json!({"done": 4, "total": 10, "in_flight": 2}),
        )],
    );
    assert!(screen_text(&m, 100, 30).contains("‖ paused"));
    feed(&mut m, vec![job(7, 32, "job.resumed", json!({}))]);
    assert_eq!(m.live.job.as_ref().unwrap().state, JobState::Running);
    // Events of an older job do not touch the latest one.
    feed(
        &mut m,
        vec![ev(
            8,
            33,
            "job.paused",
            None,
            json!({"job": "run-old00000"}),
        )],
    );
    assert_eq!(m.live.job.as_ref().unwrap().state, JobState::Running);
    feed(
        &mut m,
        vec![
            job(
                9,
                34,
                "job.cancelled",
                json!({"done": 4, "total": 10, "in_flight": 2}),
            ),
            job(
                10,
                40,
                "job.finished",
                json!({"total": 10, "accepted": 2, "cancelled": 6}),
            ),
        ],
    );
    let text = screen_text(&m, 100, 30);
    assert!(
        text.contains("■ cancelled") && text.contains("took 40.0s"),
        "{text}"
    );
}

fn row(id: &str, status: &str) -> TaskRow {
    TaskRow {
        id: id.into(),
        instruction: format!("do {id}"),
        app: "team-chat".into(),
        domain: String::new(),
        difficulty: "easy".into(),
        status: status.into(),
        rounds: 0,
        r_gold: None,
        r_init: None,
        severity: String::new(),
        tags: String::new(),
        contested: false,
    }
}

fn model_with_rows(readonly: bool) -> (Model, Store) {
    let store = super::fixture::open();
    let mut m = Model::new(Keymap::default(), readonly);
    let rows = vec![
        row("a_done", "loop_accepted"),
        row("b_pending", "pending"),
        row("c_stuck", "in_loop"),
        row("d_pending", "pending"),
    ];
    let cmds = m.update(Msg::Data(DataUpdate::Rows(Arc::new(rows), true)));
    pump(&mut m, &store, cmds);
    (m, store)
}

#[test]
fn live_keys_start_pause_resume_cancel_with_confirmations() {
    let (mut m, store) = model_with_rows(false);
    keys(&mut m, &store, "1");
    assert_eq!(m.screen, Screen::Live);
    assert!(
        keys(&mut m, &store, "ctrl-s").is_empty(),
        "the first ctrl-s only asks"
    );
    assert!(
        m.notice.as_deref().unwrap().contains("3 pending tuples"),
        "{:?}",
        m.notice
    );
    assert_eq!(
        keys(&mut m, &store, "ctrl-s"),
        vec![EngineCommand::StartRun(vec![
            "b_pending".into(),
            "c_stuck".into(),
            "d_pending".into()
        ])]
    );
    // Another key between the two presses disarms the confirmation.
    keys(&mut m, &store, "ctrl-s j");
    assert!(keys(&mut m, &store, "ctrl-s").is_empty());
    assert_eq!(keys(&mut m, &store, "p"), vec![EngineCommand::PauseJob]);
    feed(
        &mut m,
        vec![
            ev(
                1,
                0,
                "job.started",
                None,
                json!({"job": "run-1", "total": 3, "jobs": 1}),
            ),
            ev(2, 1, "job.paused", None, json!({"job": "run-1"})),
        ],
    );
    assert_eq!(
        keys(&mut m, &store, "p"),
        vec![EngineCommand::ResumeJob],
        "p toggles"
    );
    assert_eq!(keys(&mut m, &store, "P"), vec![EngineCommand::ResumeJob]);
    assert_eq!(keys(&mut m, &store, "X"), vec![EngineCommand::CancelJob]);
    // Job keys are Live-local.
    keys(&mut m, &store, "2");
    assert!(keys(&mut m, &store, "X").is_empty());
}

#[test]
fn quitting_while_a_job_of_this_workbench_runs_asks_first() {
    let (mut m, store) = model_with_rows(false);
    m.update(Msg::Data(DataUpdate::Job(JobUpdate::Started(
        "run-1".into(),
    ))));
    assert!(keys(&mut m, &store, "q").is_empty());
    assert!(!m.quit);
    assert!(
        m.notice.as_deref().unwrap().contains("q again cancels"),
        "{:?}",
        m.notice
    );
    keys(&mut m, &store, "j");
    keys(&mut m, &store, "q");
    assert!(!m.quit, "another key in between asks again");
    assert_eq!(keys(&mut m, &store, "q"), vec![EngineCommand::Quit]);
    assert!(m.quit);
    // Once the job finished, q quits at once.
    let (mut m, store) = model_with_rows(false);
    m.update(Msg::Data(DataUpdate::Job(JobUpdate::Started(
        "run-1".into(),
    ))));
    m.update(Msg::Data(DataUpdate::Job(JobUpdate::Finished(
        "done".into(),
    ))));
    assert_eq!(keys(&mut m, &store, "q"), vec![EngineCommand::Quit]);
}

#[test]
fn readonly_workbench_refuses_to_start_or_steer_jobs() {
    let (mut m, store) = model_with_rows(true);
    assert!(keys(&mut m, &store, "1 ctrl-s ctrl-s p X").is_empty());
    assert!(m.notice.as_deref().unwrap().contains("read-only"));
}

#[test]
fn esc_then_key_read_as_alt_key_closes_the_search_then_acts() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "/ r e");
    assert!(m.tuples.searching);
    let alt_one = Key {
        code: Code::Char('1'),
        ctrl: false,
        alt: true,
    };
    let cmds = m.update(Msg::Key(alt_one));
    pump(&mut m, &store, cmds);
    assert!(!m.tuples.searching, "esc closed the search");
    assert!(m.tuples.query.is_empty(), "esc cleared the query");
    assert_eq!(m.screen, Screen::Live, "then 1 switched to Live");
    keys(&mut m, &store, "?");
    let alt_q = Key {
        code: Code::Char('2'),
        ctrl: false,
        alt: true,
    };
    m.update(Msg::Key(alt_q));
    assert_eq!(m.overlay, tuplewright::tui::model::Overlay::None);
    assert_eq!(m.screen, Screen::Tuples);
}

// ---- the real job runner -------------------------------------------------------------------

/// A store with the first `n` team-chat tasks imported (pending); returns (dir, store path, ids).
pub fn pending_store(n: usize) -> (tempfile::TempDir, PathBuf, Vec<String>, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let all: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("crates/engine/src/apps/team_chat/tasks.json"))
            .expect("tasks"),
    )
    .expect("json");
    let tasks: Vec<_> = all["tasks"].as_array().expect("array")[..n].to_vec();
    let ids = tasks
        .iter()
        .map(|t| t["task_id"].as_str().expect("id").to_string())
        .collect();
    let file = dir.path().join("tasks.json");
    std::fs::write(&file, json!({ "tasks": tasks }).to_string()).expect("write");
    let path = dir.path().join("jobs.db");
    let mut store = Store::open(&path, Duration::from_secs(5)).expect("store");
    import_paths(&mut store, std::slice::from_ref(&file), &mut |_, _| {}).expect("import");
    (dir, path, ids, file)
}

/// The workbench's job runner on `path`; accepted tuples are delivered to `out/` beside the store.
pub fn runner(path: &Path, jobs: usize) -> (JobRunner, mpsc::Receiver<DataUpdate>) {
    let mut config = Config::default();
    config.agreement.jobs = jobs;
    config.export.out_dir = path.parent().expect("store dir").join("out");
    let settings = JobSettings {
        store: path.to_path_buf(),
        config,
        isolation: Isolation::Required,
        seed: 0,
    };
    let (tx, rx) = mpsc::channel();
    (JobRunner::start(settings, tx).expect("runner"), rx)
}

pub fn next_job(rx: &mpsc::Receiver<DataUpdate>) -> JobUpdate {
    match rx
        .recv_timeout(Duration::from_secs(240))
        .expect("a job update")
    {
        DataUpdate::Job(u) => u,
        other => panic!("unexpected update {other:?}"),
    }
}

fn events(path: &Path) -> Vec<Event> {
    let s = Store::open(path, Duration::from_secs(5)).expect("store");
    s.events_after(0, 100_000).expect("events")
}

fn wait_event(path: &Path, what: &str, pred: impl Fn(&[Event]) -> bool) {
    let t0 = Instant::now();
    while !pred(&events(path)) {
        assert!(t0.elapsed() < Duration::from_secs(120), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn assert_consistent(path: &Path, ids: &[String]) -> (usize, usize) {
    let s = Store::open(path, Duration::from_secs(5)).expect("store");
    assert!(s.check_integrity().expect("integrity").is_empty());
    let (mut accepted, mut pending) = (0, 0);
    for id in ids {
        let status = s.effective_status(id).expect("status");
        let rounds = s.rounds(id).expect("rounds");
        match status.as_str() {
            "loop_accepted" => accepted += 1,
            "pending" => {
                pending += 1;
                assert!(rounds.is_empty(), "{id}: pending with a stored round");
            }
            other => panic!("{id} left {other}"),
        }
    }
    (accepted, pending)
}

#[test]
fn workbench_runs_the_loop_on_pending_tasks_and_sees_it_finish() {
    let (_dir, path, ids, _) = pending_store(3);
    let (jobs, rx) = runner(&path, 2);
    jobs.send(EngineCommand::StartRun(ids.clone()));
    let JobUpdate::Started(id) = next_job(&rx) else {
        panic!("not started")
    };
    jobs.send(EngineCommand::StartRun(ids.clone()));
    match next_job(&rx) {
        JobUpdate::Notice(n) => assert!(n.contains("still running"), "{n}"),
        other => panic!("{other:?}"),
    }
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("not finished")
    };
    assert!(line.contains("3 accepted"), "{line}");
    assert_eq!(assert_consistent(&path, &ids), (3, 0));
    // The Live screen, built from the store's events only, shows the job and every check.
    let store = Store::open(&path, Duration::from_secs(5)).expect("store");
    let mut m = Model::new(Keymap::default(), false);
    pump_events(&mut m, &store);
    let j = m.live.job.clone().expect("job header");
    assert_eq!(
        (j.id.as_str(), j.state, j.done, j.total, j.jobs),
        (id.as_str(), JobState::Finished, 3, 3, 2)
    );
    assert!(m
        .live
        .tasks
        .iter()
        .all(|t| t.checks == [Some(true); 5] && t.r_gold == Some(1.0)));
    // Nothing pending any more: a new start is refused with a reason.
    jobs.send(EngineCommand::StartRun(ids.clone()));
    match next_job(&rx) {
        JobUpdate::Notice(n) => assert!(n.contains("none of the 3"), "{n}"),
        other => panic!("{other:?}"),
    }
    // Rollouts on the accepted tuples, as `tuplewright rollout --policy oracle`.
    let rollouts = |policy: &str| EngineCommand::StartRollouts {
        task_ids: ids.clone(),
        policy: policy.parse().expect("spec"),
        trials: 1,
        vlm: None,
    };
    // A bad spec never reaches the runner: the command carries a parsed policy.
    let bad = "bogus".parse::<PolicySpec>();
    assert!(bad
        .err()
        .is_some_and(|e| e.to_string().contains("unknown rollout policy `bogus`")));
    // A launch on nothing is refused with a notice.
    jobs.send(EngineCommand::StartRollouts {
        task_ids: Vec::new(),
        policy: PolicySpec::Oracle,
        trials: 1,
        vlm: None,
    });
    match next_job(&rx) {
        JobUpdate::Notice(n) => assert!(n.contains("cannot start the rollouts"), "{n}"),
        other => panic!("{other:?}"),
    }
    jobs.send(rollouts("oracle"));
    let JobUpdate::Started(rid) = next_job(&rx) else {
        panic!("rollouts not started")
    };
    assert!(rid.starts_with("rollout-"), "{rid}");
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("rollouts not finished")
    };
    assert!(line.contains("3 tuple(s) rolled out"), "{line}");
    // A job whose tuples all rolled out is a success, not an error (#33).
    assert!(!line.contains("failed"), "{line}");
    assert_eq!(
        tuplewright::tui::model::notice::Level::guess(&line),
        tuplewright::tui::model::notice::Level::Success
    );
    let ev = events(&path);
    let count = |k: &str| ev.iter().filter(|e| e.kind == k).count();
    assert_eq!((count("rollout.trial"), count("rollout.recorded")), (3, 3));
    assert!(ev
        .iter()
        .filter(|e| e.kind == "rollout.recorded")
        .all(|e| e.payload["reward"] == 1.0));
    assert!(ev
        .iter()
        .any(|e| e.kind == "job.started" && e.payload["kind"] == "rollout"));
    assert_eq!(jobs.stop(), None);
}

#[test]
fn workbench_pauses_then_cancels_a_run_and_nothing_partial_is_stored() {
    let (_dir, path, ids, _) = pending_store(3);
    let (jobs, rx) = runner(&path, 1);
    jobs.send(EngineCommand::PauseJob);
    assert!(matches!(next_job(&rx), JobUpdate::Notice(n) if n.contains("no job")));
    jobs.send(EngineCommand::StartRun(ids.clone()));
    assert!(matches!(next_job(&rx), JobUpdate::Started(_)));
    wait_event(&path, "a round starts", |e| {
        e.iter().any(|e| e.kind == "round.phase")
    });
    jobs.send(EngineCommand::PauseJob);
    assert!(matches!(next_job(&rx), JobUpdate::Notice(n) if n.starts_with("pausing")));
    wait_event(&path, "the task in flight finishes", |e| {
        e.iter().any(|e| e.kind == "job.task")
    });
    std::thread::sleep(Duration::from_millis(800));
    let started: std::collections::BTreeSet<_> = events(&path)
        .into_iter()
        .filter(|e| e.kind == "round.phase")
        .filter_map(|e| e.task_id)
        .collect();
    assert_eq!(
        started.len(),
        1,
        "a paused job started another task: {started:?}"
    );
    jobs.send(EngineCommand::CancelJob);
    assert!(matches!(next_job(&rx), JobUpdate::Notice(n) if n.starts_with("cancelling")));
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("not finished")
    };
    assert!(
        line.contains("1 accepted") && line.contains("2 cancelled"),
        "{line}"
    );
    assert_eq!(assert_consistent(&path, &ids), (1, 2));
    let kinds: Vec<String> = events(&path).into_iter().map(|e| e.kind).collect();
    for k in ["job.started", "job.paused", "job.cancelled", "job.finished"] {
        assert!(kinds.iter().any(|x| x == k), "{k} missing");
    }
    assert_eq!(jobs.stop(), None);
}

#[test]
fn quitting_with_a_run_in_flight_cancels_it_cleanly_and_says_so() {
    let (_dir, path, ids, _) = pending_store(2);
    let (jobs, rx) = runner(&path, 1);
    jobs.send(EngineCommand::StartRun(ids.clone()));
    assert!(matches!(next_job(&rx), JobUpdate::Started(_)));
    wait_event(&path, "a round starts", |e| {
        e.iter().any(|e| e.kind == "round.phase")
    });
    let msg = jobs.stop().expect("a message about the job");
    assert!(
        msg.contains("cancelled job") && msg.contains("pending"),
        "{msg}"
    );
    let (accepted, pending) = assert_consistent(&path, &ids);
    assert!(pending >= 1 && accepted + pending == 2);
}
