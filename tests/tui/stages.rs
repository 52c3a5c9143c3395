//! Issue 33: the pipeline stages as workbench jobs. Model side: `V` / `Y` ask for a second press
//! and send the marked tuples (else the selection); `!` opens the re-run line prefilled from the
//! config, refuses a bad setting naming it, and sends the parsed settings. Runner side (real
//! scripted agents and sandbox): a run, then the critic vote, verify and a re-run with more rounds
//! and a fault rate, each a job with `job.*` events the Live screen follows, the re-run's history
//! kept (its decision, the earlier rounds, numbers continuing).

use std::time::Duration;

use tuplewright::engine::jobs::rerun::RerunSettings;
use tuplewright::engine::store::Store;
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::model::live_job::JobState;
use tuplewright::tui::model::notice::Level;
use tuplewright::tui::model::Model;

use super::filter_fixture::{keys_w, model_on, type_text, voted_copy};
use super::fixture::pump_events;
use super::live_jobs::{next_job, pending_store, runner};
use tuplewright::tui::jobs::JobUpdate;

#[test]
fn vote_and_verify_ask_twice_and_send_the_marked_tuples() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    keys_w(&mut m, &mut store, "2 space space");
    let marked = tuplewright::tui::model::bulk::marked_ids(&m);
    assert_eq!(marked.len(), 2);
    let first = keys_w(&mut m, &mut store, "V");
    assert!(first.is_empty(), "one press only asks: {first:?}");
    assert!(m.notice.as_deref().is_some_and(|n| n.contains("V again")));
    let sent = keys_w(&mut m, &mut store, "V");
    assert_eq!(sent, vec![EngineCommand::StartVote(marked.clone())]);
    // Another key in between drops the confirmation.
    keys_w(&mut m, &mut store, "Y j");
    assert!(keys_w(&mut m, &mut store, "Y").is_empty());
    assert_eq!(
        keys_w(&mut m, &mut store, "Y"),
        vec![EngineCommand::StartVerify(marked)]
    );
    // Without marks: the selected tuple.
    keys_w(&mut m, &mut store, "esc");
    let sel = m.tuples.selected_id().expect("selection").to_string();
    keys_w(&mut m, &mut store, "V");
    assert_eq!(
        keys_w(&mut m, &mut store, "V"),
        vec![EngineCommand::StartVote(vec![sel])]
    );
}

#[test]
fn read_only_refuses_stages_before_asking() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, true);
    for k in ["V", "Y", "!"] {
        assert!(keys_w(&mut m, &mut store, k).is_empty());
        assert!(m.notice.as_deref().is_some_and(|n| n.contains("read-only")));
        assert!(m.tuples.rerun.is_none());
    }
}

#[test]
fn rerun_line_is_prefilled_refuses_a_bad_setting_and_sends_the_parsed_ones() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    m.tuples.rerun_default = "rounds=6 fault=0 generator=scripted".into();
    keys_w(&mut m, &mut store, "2");
    let sel = m.tuples.selected_id().expect("selection").to_string();
    keys_w(&mut m, &mut store, "!");
    let p = m.tuples.rerun.clone().expect("the re-run line is open");
    assert_eq!(p.input, "rounds=6 fault=0 generator=scripted");
    assert_eq!(p.ids, vec![sel.clone()]);
    let text = super::fixture::screen_text(&m, 100, 24);
    assert!(text.contains("re-run 1 tuple(s) with"), "{text}");
    keys_w(&mut m, &mut store, "ctrl-u");
    type_text(&mut m, &mut store, "rounds=0");
    assert!(keys_w(&mut m, &mut store, "enter").is_empty());
    let err = m.tuples.rerun.as_ref().and_then(|p| p.error.clone());
    assert!(
        err.as_deref().is_some_and(|e| e.contains("`rounds=0`")),
        "{err:?}"
    );
    keys_w(&mut m, &mut store, "backspace");
    type_text(&mut m, &mut store, "8 fault=0.5");
    let sent = keys_w(&mut m, &mut store, "enter");
    let [EngineCommand::StartRerun(cmd)] = sent.as_slice() else {
        panic!("{sent:?}")
    };
    assert_eq!(cmd.task_ids, vec![sel]);
    assert_eq!(cmd.actor, "curator");
    assert_eq!(
        cmd.settings,
        RerunSettings {
            max_rounds: Some(8),
            fault_rate: Some(0.5),
            generator: None
        }
    );
    assert!(m.tuples.rerun.is_none());
}

#[test]
fn workbench_votes_verifies_and_reruns_as_jobs_with_history_kept() {
    let (_dir, path, ids, _) = pending_store(2);
    let (jobs, rx) = runner(&path, 2);
    jobs.send(EngineCommand::StartRun(ids.clone()));
    assert!(matches!(next_job(&rx), JobUpdate::Started(_)));
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("run not finished")
    };
    assert!(line.contains("2 accepted"), "{line}");
    let open = || Store::open(&path, Duration::from_secs(5)).expect("store");
    // The critic vote (`[filter]` default: the scripted critic), as a job.
    jobs.send(EngineCommand::StartVote(ids.clone()));
    let JobUpdate::Started(vid) = next_job(&rx) else {
        panic!("vote not started")
    };
    assert!(vid.starts_with("filter-"), "{vid}");
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("vote not finished")
    };
    assert!(line.starts_with(&format!("job {vid} finished: ")), "{line}");
    assert_ne!(Level::guess(&line), Level::Error, "{line}");
    let store = open();
    for id in &ids {
        assert!(
            !store.votes(id).expect("votes").is_empty(),
            "{id} has votes"
        );
        assert_ne!(store.effective_status(id).expect("status"), "loop_accepted");
    }
    let mut m = Model::new(Keymap::default(), false);
    pump_events(&mut m, &store);
    let j = m.live.job.clone().expect("the vote's job header");
    assert_eq!(
        (j.id.as_str(), j.kind.as_str(), j.state, j.done, j.total),
        (vid.as_str(), "filter", JobState::Finished, 2, 2)
    );
    // Verify one tuple, as a job.
    jobs.send(EngineCommand::StartVerify(vec![ids[0].clone()]));
    let JobUpdate::Started(yid) = next_job(&rx) else {
        panic!("verify not started")
    };
    assert!(yid.starts_with("verify-"), "{yid}");
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("verify not finished")
    };
    assert!(line.contains("1 passed"), "{line}");
    let rounds_before = open().rounds(&ids[0]).expect("rounds").len();
    let last_before = open().last_round_no(&ids[0]).expect("round no");
    // Re-run the first tuple with more rounds and the scripted agents making mistakes.
    let settings = RerunSettings::parse("rounds=4 fault=1").expect("settings");
    jobs.send(EngineCommand::StartRerun(
        tuplewright::tui::jobs_stages::RerunCmd {
            task_ids: vec![ids[0].clone()],
            settings,
            actor: "ana".into(),
        },
    ));
    assert!(matches!(next_job(&rx), JobUpdate::Started(_)));
    let JobUpdate::Notice(n) = next_job(&rx) else {
        panic!("no re-run notice")
    };
    assert!(
        n.contains("1 re-opened") && n.contains("max 4 rounds"),
        "{n}"
    );
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("re-run not finished")
    };
    assert!(line.contains("1 accepted"), "{line}");
    let store = open();
    let rerun = store
        .decisions(&ids[0])
        .expect("decisions")
        .into_iter()
        .find(|d| d.reason.starts_with("rerun"))
        .expect("the re-run is a recorded decision");
    assert_eq!(
        (rerun.actor.as_str(), rerun.source.as_str()),
        ("ana", "human")
    );
    let rounds = store.rounds(&ids[0]).expect("rounds");
    assert!(rounds.len() > rounds_before, "the earlier rounds are kept");
    assert!(store.last_round_no(&ids[0]).expect("no") > last_before);
    assert_eq!(store.effective_status(&ids[0]).expect("s"), "loop_accepted");
    assert_eq!(jobs.stop(), None);
}

#[test]
fn live_logs_a_rollout_job_with_its_own_outcome_words() {
    use super::fixture::{ev, feed, screen_text};
    use serde_json::json;
    let mut m = Model::new(Keymap::default(), false);
    m.screen = tuplewright::tui::action::Screen::Live;
    feed(
        &mut m,
        vec![
            ev(
                1,
                0,
                "job.started",
                None,
                json!({"job": "rollout-1", "kind": "rollout", "total": 1, "jobs": 1}),
            ),
            ev(
                2,
                5,
                "job.task",
                Some("t1"),
                json!({"job": "rollout-1", "outcome": "ok", "secs": 5.0, "done": 1, "total": 1}),
            ),
            ev(
                3,
                6,
                "job.finished",
                None,
                json!({"job": "rollout-1", "total": 1, "ok": 1, "failed": 0, "leased": 0, "cancelled": 0}),
            ),
        ],
    );
    let text = screen_text(&m, 160, 40);
    let line = text
        .lines()
        .find(|l| l.contains("job.finished"))
        .expect("the finished line");
    assert!(line.contains("rollout-1 1/1 · ok 1"), "{line}");
    assert!(
        !line.contains("accepted") && !line.contains("rejected"),
        "{line}"
    );
    let j = m.live.job.clone().expect("job");
    assert_eq!(j.outcomes, vec![("ok".to_string(), 1)]);
}

#[test]
fn taskgen_line_opens_prefilled_and_sends_the_line() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    m.tuples.taskgen_default = "apps=team-chat n=10 seed=0 author=scripted".into();
    keys_w(&mut m, &mut store, "1 T");
    assert_eq!(m.screen, tuplewright::tui::action::Screen::Tuples);
    let p = m.tuples.rerun.clone().expect("the taskgen line");
    assert!(p.taskgen && p.ids.is_empty());
    keys_w(&mut m, &mut store, "ctrl-u");
    type_text(&mut m, &mut store, "apps=team-chat n=3 seed=1");
    let sent = keys_w(&mut m, &mut store, "enter");
    assert_eq!(
        sent,
        vec![EngineCommand::StartTaskgen(
            "apps=team-chat n=3 seed=1".into()
        )]
    );
}

#[test]
fn workbench_taskgen_job_stores_pending_tasks_and_refuses_a_bad_line() {
    let (_dir, path, _ids, _) = pending_store(1);
    let (jobs, rx) = runner(&path, 1);
    jobs.send(EngineCommand::StartTaskgen("apps=team-chat n=0".into()));
    match next_job(&rx) {
        JobUpdate::Notice(n) => assert!(n.contains("`n=0`") && n.contains("1..="), "{n}"),
        other => panic!("{other:?}"),
    }
    let before = Store::open(&path, Duration::from_secs(5))
        .expect("store")
        .statuses()
        .expect("statuses")
        .len();
    jobs.send(EngineCommand::StartTaskgen(
        "apps=team-chat n=3 seed=5 author=scripted".into(),
    ));
    let JobUpdate::Started(id) = next_job(&rx) else {
        panic!("taskgen not started")
    };
    assert!(id.starts_with("taskgen-"), "{id}");
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("taskgen not finished")
    };
    assert!(line.contains("3 task(s) generated"), "{line}");
    let store = Store::open(&path, Duration::from_secs(5)).expect("store");
    let statuses = store.statuses().expect("statuses");
    assert_eq!(statuses.len(), before + 3, "three new tasks stored");
    assert_eq!(
        statuses
            .values()
            .filter(|s| s.as_str() == "pending")
            .count(),
        before + 3
    );
    let mut m = Model::new(Keymap::default(), false);
    pump_events(&mut m, &store);
    let j = m.live.job.clone().expect("job header");
    assert_eq!((j.kind.as_str(), j.state), ("taskgen", JobState::Finished));
    assert_eq!(jobs.stop(), None);
}

#[test]
fn live_shows_one_throughput_figure_when_a_job_is_recorded() {
    use super::fixture::{ev, feed, screen_text};
    use serde_json::json;
    let mut m = Model::new(Keymap::default(), false);
    m.screen = tuplewright::tui::action::Screen::Live;
    let started = json!({"job": "run-1", "kind": "run", "total": 4, "jobs": 1});
    let task = |seq, secs, done| {
        ev(
            seq,
            secs,
            "job.task",
            Some("t"),
            json!({"job": "run-1", "outcome": "accepted", "secs": 30.0, "done": done, "total": 4}),
        )
    };
    feed(
        &mut m,
        vec![
            ev(1, 0, "job.started", None, started),
            task(2, 30, 1),
            task(3, 60, 2),
        ],
    );
    let text = screen_text(&m, 160, 30);
    assert_eq!(text.matches("tasks/min").count(), 1, "{text}");
    // Without a job the header's window rate is the one figure.
    let mut m = Model::new(Keymap::default(), false);
    m.screen = tuplewright::tui::action::Screen::Live;
    let text = screen_text(&m, 160, 30);
    assert_eq!(text.matches("tasks/min").count(), 1, "{text}");
}

#[test]
fn tuples_show_whole_ids_and_drop_columns_nobody_fills() {
    let (mut m, store) = super::fixture::loaded_model();
    super::fixture::keys(&mut m, &store, "2");
    let ids: Vec<String> = m.tuples.rows.iter().map(|r| r.id.clone()).collect();
    let text = super::fixture::screen_text(&m, 100, 24);
    for id in &ids {
        assert!(text.contains(id.as_str()), "{id} cut:\n{text}");
    }
    // 160 columns: no tuple of the fixture has a critic severity, so no `sev` column.
    let unvoted = m.tuples.rows.iter().all(|r| r.severity.is_empty());
    let text = super::fixture::screen_text(&m, 160, 24);
    let header = text.lines().nth(2).unwrap_or_default().to_string();
    assert!(header.contains("instruction"), "{header}");
    assert_eq!(header.contains(" sev "), !unvoted, "{header}");
}

#[test]
fn every_screen_shows_the_scores_in_one_order_gold_then_init() {
    let (mut m, store) = super::fixture::loaded_model();
    let before = |text: &str, a: &str, b: &str| {
        let (i, j) = (text.find(a), text.find(b));
        assert!(
            i.is_some() && j.is_some() && i < j,
            "{a} before {b}:\n{text}"
        );
    };
    for (keys, gold, init) in [
        ("1", "r(g)", "r(i)"),
        ("2", "r(g)", "r(i)"),
        ("2 enter", "r(g)/r(i)", "1.00/0.00"),
        ("5", "r(gold)", "r(init)"),
    ] {
        super::fixture::keys(&mut m, &store, keys);
        let text = super::fixture::screen_text(&m, 160, 40);
        // The Reward screen: its header line (the cards below are per component).
        let text = match keys {
            "5" => text
                .lines()
                .find(|l| l.contains(" trials"))
                .unwrap_or_default()
                .to_string(),
            _ => text,
        };
        before(&text, gold, init);
    }
}
