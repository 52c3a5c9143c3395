//! Live read from the store: header counts and the latest job even when the event window misses
//! its start, selectable timeline rows opening the Inspector, a cancelled job's counts adding up,
//! and the workbench's run skipping a task another process leases.

use std::time::Duration;

use serde_json::json;
use tuplewright::engine::lease::{Claim, LeaseKeeper, LeaseSettings};
use tuplewright::engine::store::Store;
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::jobs::JobUpdate;
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::model::live_job::JobState;
use tuplewright::tui::model::{Model, Msg};

use super::fixture::{ev, feed, keys, loaded_model, open, pump, screen_text};
use super::live_jobs::{next_job, pending_store, runner};

#[test]
fn live_header_and_job_come_from_the_store_when_the_event_window_misses_them() {
    let store = open();
    let mut m = Model::new(Keymap::default(), false);
    let init = m.init();
    assert!(init.contains(&EngineCommand::LoadLive(true)));
    pump(&mut m, &store, init);
    // Only the log's last three events reach the model (a long history beyond the window).
    let last = store.last_event_seq().unwrap();
    let tail = store.events_after(last - 3, 10).unwrap();
    m.update(Msg::Data(DataUpdate::Events(tail)));
    let c = m.live.counts.clone().expect("store counts");
    let rounds: i64 = store
        .conn()
        .sqlite()
        .unwrap()
        .query_row("SELECT COUNT(*) FROM rounds", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        (c.tasks, c.out_of_loop(), c.rounds),
        (4, 4, rounds as usize)
    );
    assert!(m.live.tasks.len() < 4, "the window alone would undercount");
    let j = m.live.job.clone().expect("the job, read from the store");
    assert_eq!((j.state, j.done, j.total), (JobState::Finished, 4, 4));
    m.screen = Screen::Live;
    let text = screen_text(&m, 160, 48);
    assert!(
        text.contains(&format!(
            " tasks 4 · in loop 0 · out of loop 4 · rounds {rounds} · "
        )),
        "{text}"
    );
    assert!(text.contains("✓ finished · 4/4 accepted"), "{text}");
    assert!(!text.contains("no job"), "{text}");
}

#[test]
fn live_rows_are_selectable_and_enter_opens_the_inspector_on_that_tuple() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "1 enter");
    assert_eq!(
        m.screen,
        Screen::Live,
        "nothing selected yet: stays on Live"
    );
    let order: Vec<String> = m.live.ordered().iter().map(|t| t.task_id.clone()).collect();
    keys(&mut m, &store, "n n n N");
    assert_eq!(m.live.selected.as_deref(), Some(order[1].as_str()));
    let text = screen_text(&m, 160, 48);
    assert!(text.contains("n/N select, enter inspects"), "{text}");
    let cmds = keys(&mut m, &store, "enter");
    assert_eq!(cmds, vec![EngineCommand::LoadDetail(order[1].clone())]);
    assert_eq!(m.screen, Screen::Inspector);
    assert_eq!(m.inspector.task_id.as_deref(), Some(order[1].as_str()));
    assert_eq!(m.tuples.selected_id(), Some(order[1].as_str()));
}

#[test]
fn a_cancelled_jobs_header_adds_up_to_its_total() {
    let mut m = Model::new(Keymap::default(), false);
    let job = |kind: &str, secs: u32, p: serde_json::Value| (kind.to_string(), secs, p);
    let mut evs = vec![job(
        "job.started",
        0,
        json!({"job": "run-0000cafe", "kind": "run", "total": 21, "jobs": 2}),
    )];
    for i in 1..=16u32 {
        evs.push(job(
            "job.task",
            i,
            json!({"job": "run-0000cafe", "outcome": "accepted", "secs": 1.0, "done": i, "total": 21}),
        ));
    }
    evs.push(job(
        "job.cancelled",
        17,
        json!({"job": "run-0000cafe", "done": 16, "total": 21}),
    ));
    for i in 17..=18u32 {
        evs.push(job(
            "job.task",
            i + 1,
            json!({"job": "run-0000cafe", "outcome": "cancelled", "secs": 0.5, "done": i, "total": 21}),
        ));
    }
    let events: Vec<_> = evs
        .into_iter()
        .enumerate()
        .map(|(i, (k, s, p))| ev(i as i64 + 1, s, &k, None, p))
        .collect();
    feed(&mut m, events);
    m.screen = Screen::Live;
    let text = screen_text(&m, 160, 48);
    assert!(text.contains("16/21 done, 2 cancelled"), "{text}");
    feed(
        &mut m,
        vec![ev(
            100,
            30,
            "job.finished",
            None,
            json!({"job": "run-0000cafe", "total": 21, "accepted": 16, "rejected": 0,
                   "infra": 0, "invalid": 0, "cancelled": 5}),
        )],
    );
    let j = m.live.job.clone().unwrap();
    assert_eq!((j.done, j.total), (16, 21));
    let text = screen_text(&m, 160, 48);
    let header = text
        .lines()
        .find(|l| l.starts_with(" job run-0000cafe"))
        .unwrap();
    assert!(
        header.contains("■ cancelled · 16 accepted + 5 cancelled of 21"),
        "{header}"
    );
    assert!(!header.contains("18/21"), "{header}");
    // The log names a task event's position, not a done count.
    assert!(
        text.contains("run-0000cafe task 18 of 21: cancelled"),
        "{text}"
    );
}

#[test]
fn workbench_run_skips_a_task_another_process_leases_and_says_so() {
    let (_dir, path, ids, _) = pending_store(3);
    // The test process plays the headless run that holds the first task.
    let other = LeaseKeeper::open(&path, Duration::from_secs(5), LeaseSettings::default()).unwrap();
    assert!(matches!(
        other.claim(&ids[0], "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    let (jobs, rx) = runner(&path, 2);
    jobs.send(EngineCommand::StartRun(ids.clone()));
    assert!(matches!(next_job(&rx), JobUpdate::Started(_)));
    match next_job(&rx) {
        JobUpdate::Notice(n) => assert!(
            n.contains(
                "on 2 pending tasks (1 skipped: 0 not pending, 1 leased by another process)"
            ),
            "{n}"
        ),
        other => panic!("{other:?}"),
    }
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("not finished")
    };
    assert!(line.contains("2 accepted"), "{line}");
    let store = Store::open(&path, Duration::from_secs(5)).unwrap();
    assert_eq!(store.effective_status(&ids[0]).unwrap(), "pending");
    let live = tuplewright::tui::live_data::load_live(&store, false).unwrap();
    assert_eq!(
        live.counts.leased, 1,
        "the Live header counts the other process's lease"
    );
    assert!(store.rounds(&ids[0]).unwrap().is_empty());
    // All selected tasks leased or done: the start is refused with the counts.
    jobs.send(EngineCommand::StartRun(ids.clone()));
    match next_job(&rx) {
        JobUpdate::Notice(n) => assert!(
            n.contains("none of the 3 selected tasks is pending and free (2 not pending, 1 leased"),
            "{n}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(jobs.stop(), None);
}
