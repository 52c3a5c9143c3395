//! The model driven by key sequences on the fixture store: state and the engine commands produced.

use tuplewright::tui::action::Screen;
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::matcher::SortKey;
use tuplewright::tui::model::Overlay;

use super::fixture::{keys, loaded_model};

#[test]
fn number_keys_and_tab_switch_screens_and_stats_reloads() {
    let (mut m, store) = loaded_model();
    assert_eq!(m.screen, Screen::Tuples);
    assert_eq!(m.tuples.view.len(), 4, "every fixture tuple listed");
    let cmds = keys(&mut m, &store, "8");
    assert_eq!(m.screen, Screen::Stats);
    assert_eq!(cmds, vec![EngineCommand::LoadStats]);
    keys(&mut m, &store, "1");
    assert_eq!(m.screen, Screen::Live);
    keys(&mut m, &store, "tab");
    assert_eq!(m.screen, Screen::Tuples);
    keys(&mut m, &store, "backtab backtab");
    assert_eq!(m.screen, Screen::Stats);
}

#[test]
fn navigation_with_vim_keys_and_gg_g() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "j j");
    assert_eq!(m.tuples.selected, 2);
    keys(&mut m, &store, "G");
    assert_eq!(m.tuples.selected, 3);
    keys(&mut m, &store, "g g");
    assert_eq!(m.tuples.selected, 0);
    keys(&mut m, &store, "j k k");
    assert_eq!(m.tuples.selected, 0, "clamped at the top");
}

#[test]
fn fuzzy_search_filters_by_instruction_and_id_and_esc_clears() {
    let (mut m, store) = loaded_model();
    let ids: Vec<String> = m.tuples.rows.iter().map(|r| r.id.clone()).collect();
    let target = ids[1].clone();
    let query = target.clone();
    let typed: Vec<String> = query.chars().map(|c| c.to_string()).collect();
    let cmds = keys(&mut m, &store, &format!("/ {}", typed.join(" ")));
    assert!(m.tuples.searching);
    assert!(matches!(cmds.last(), Some(EngineCommand::View(spec)) if spec.query == query));
    assert_eq!(
        m.tuples.selected_id(),
        Some(target.as_str()),
        "best match first"
    );
    keys(&mut m, &store, "enter");
    assert!(!m.tuples.searching);
    assert_eq!(m.tuples.query, query, "enter keeps the query");
    keys(&mut m, &store, "esc");
    assert!(m.tuples.query.is_empty());
    assert_eq!(m.tuples.view.len(), 4);
    keys(&mut m, &store, "/ z q x z q");
    assert!(m.tuples.view.is_empty(), "nothing matches zqxzq");
}

#[test]
fn filters_and_sort_cycle_and_produce_view_requests() {
    let (mut m, store) = loaded_model();
    let cmds = keys(&mut m, &store, "f");
    let status = m.tuples.rows[0].status.clone();
    assert_eq!(m.tuples.status.as_deref(), Some(status.as_str()));
    assert!(
        matches!(&cmds[0], EngineCommand::View(s) if s.status.as_deref() == Some(status.as_str()))
    );
    keys(&mut m, &store, "s s");
    assert_eq!(m.tuples.sort, SortKey::App);
    keys(&mut m, &store, "d");
    let diff = m.tuples.difficulty.clone().expect("a difficulty filter");
    assert!(m
        .tuples
        .view
        .iter()
        .all(|&i| m.tuples.rows[i as usize].difficulty == diff));
    keys(&mut m, &store, "c");
    assert_eq!(
        (m.tuples.status.clone(), m.tuples.difficulty.clone()),
        (None, None)
    );
    assert_eq!(m.tuples.view.len(), 4);
}

#[test]
fn enter_opens_the_inspector_and_n_advances_to_the_next_tuple() {
    let (mut m, store) = loaded_model();
    let first = m.tuples.rows[0].id.clone();
    let cmds = keys(&mut m, &store, "enter");
    assert_eq!(m.screen, Screen::Inspector);
    assert_eq!(cmds, vec![EngineCommand::LoadDetail(first.clone())]);
    let d = m.inspector.detail.as_ref().expect("detail loaded");
    assert_eq!(d.task.task.task_id, first);
    assert!(!d.rounds.is_empty(), "the loop recorded rounds");
    keys(&mut m, &store, "t");
    assert_eq!(m.inspector.pane.label(), "initial_setup.py");
    keys(&mut m, &store, "D");
    assert!(
        m.inspector.diff,
        "D shows the pane as a diff against the previous round"
    );
    keys(&mut m, &store, "D");
    assert!(!m.inspector.diff);
    let second = m.tuples.rows[1].id.clone();
    let cmds = keys(&mut m, &store, "n");
    assert_eq!(cmds, vec![EngineCommand::LoadDetail(second.clone())]);
    assert_eq!(
        m.inspector
            .detail
            .as_ref()
            .map(|d| d.task.task.task_id.clone()),
        Some(second)
    );
}

#[test]
fn palette_runs_actions_by_name_and_help_toggles() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, ": t a b _ s t a t s");
    assert!(matches!(m.overlay, Overlay::Palette(_)));
    keys(&mut m, &store, "enter");
    assert_eq!(m.overlay, Overlay::None);
    assert_eq!(m.screen, Screen::Stats);
    keys(&mut m, &store, "ctrl-p i n s p e c t enter");
    assert_eq!(
        m.screen,
        Screen::Inspector,
        "palette matches descriptions too"
    );
    keys(&mut m, &store, "?");
    assert!(matches!(&m.overlay, Overlay::Help(h) if h.scroll == 0));
    keys(&mut m, &store, "j");
    assert!(matches!(&m.overlay, Overlay::Help(h) if h.scroll == 1));
    keys(&mut m, &store, "esc");
    assert_eq!(m.overlay, Overlay::None);
    let cmds = keys(&mut m, &store, "ctrl-c");
    assert!(m.quit);
    assert_eq!(cmds, vec![EngineCommand::Quit]);
}

#[test]
fn live_reads_the_loop_events_with_c1_to_c5_and_pauses_when_scrolled() {
    let (mut m, store) = loaded_model();
    let live = &m.live;
    assert_eq!(live.tasks.len(), 4);
    assert_eq!(
        live.rounds_recorded,
        live.tasks.iter().map(|t| t.round as usize).sum::<usize>()
    );
    for t in &live.tasks {
        assert_eq!(t.status, "loop_accepted", "{}", t.task_id);
        assert_eq!(
            t.checks,
            [Some(true); 5],
            "{}: C1–C5 from the round record",
            t.task_id
        );
        assert_eq!(t.r_gold, Some(1.0));
    }
    keys(&mut m, &store, "1 k k");
    assert!(!m.live.follow);
    assert_eq!(m.live.scroll_back, 2);
    // New events arriving while paused are counted, and the view stays where it was.
    let more = tuplewright::engine::store::Event {
        seq: m.live.last_seq + 1,
        time: "2026-01-01T00:00:00.000Z".into(),
        kind: "round.phase".into(),
        task_id: Some("new_task".into()),
        payload: serde_json::json!({"phase": "generate", "detail": {"round": 1}}),
    };
    m.update(tuplewright::tui::model::Msg::Data(
        tuplewright::tui::data::DataUpdate::Events(vec![more]),
    ));
    assert_eq!(m.live.new_while_paused, 1);
    assert_eq!(m.live.scroll_back, 3);
    keys(&mut m, &store, "G");
    assert!(m.live.follow);
    assert_eq!((m.live.scroll_back, m.live.new_while_paused), (0, 0));
}

#[test]
fn worker_threads_load_the_store_and_follow_events_written_by_another_connection() {
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    use tuplewright::tui::data::DataUpdate;
    use tuplewright::tui::worker::Workers;

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("copy.db");
    // A copy of the fixture, so the event written below does not change the other tests' store.
    let src = super::fixture::open();
    src.conn()
        .sqlite()
        .unwrap()
        .execute("VACUUM INTO ?1", [path.to_str().expect("utf-8 path")])
        .expect("copy store");
    let reader =
        tuplewright::engine::store::Store::open(&path, Duration::from_secs(5)).expect("open copy");
    let (tx, rx) = mpsc::channel();
    let workers = Workers::start(reader, tx).expect("start workers");
    workers.send(EngineCommand::LoadRowsPage(2));
    workers.send(EngineCommand::LoadRows);
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut got_page = false;
    let mut got_full = false;
    let mut last_seq = 0;
    while !(got_page && got_full && last_seq > 0) {
        let u = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("worker update");
        match u {
            DataUpdate::Rows(rows, false) => got_page = rows.len() == 2,
            DataUpdate::Rows(rows, true) => got_full = rows.len() == 4,
            DataUpdate::Events(ev) => last_seq = ev.last().map_or(last_seq, |e| e.seq),
            _ => {}
        }
    }
    // Another process (here: another connection) appends an event; the polling worker sees it.
    let mut writer = tuplewright::engine::store::Store::open(&path, Duration::from_secs(5))
        .expect("open writer");
    writer
        .write(|tx| {
            tx.append_event(
                "round.phase",
                Some("x_task"),
                &serde_json::json!({"phase": "setup", "detail": {"round": 1}}),
            )
        })
        .expect("append");
    let seen = loop {
        match rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the new event arrives")
        {
            DataUpdate::Events(ev) => {
                if let Some(e) = ev.iter().find(|e| e.task_id.as_deref() == Some("x_task")) {
                    break e.seq;
                }
            }
            _ => continue,
        }
    };
    assert!(seen > last_seq);
    workers.stop();
}

#[test]
fn search_field_terms_filter_by_status_rounds_and_rewards() {
    let (mut m, store) = loaded_model();
    let count = |m: &tuplewright::tui::model::Model| m.tuples.view.len();
    let type_query = |q: &str| {
        let keys: Vec<String> = q
            .chars()
            .map(|c| {
                if c == ' ' {
                    "space".to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        format!("/ {} enter", keys.join(" "))
    };
    let rows = tuplewright::tui::data::load_rows(&store).expect("rows");
    let expected =
        |f: &dyn Fn(&tuplewright::tui::data::TaskRow) -> bool| rows.iter().filter(|r| f(r)).count();
    keys(&mut m, &store, &type_query("rounds:>=1 gold:1"));
    assert_eq!(
        count(&m),
        expected(&|r| r.rounds >= 1 && r.r_gold == Some(1.0)),
        "{:?}",
        m.tuples.query
    );
    assert!(count(&m) > 0);
    keys(&mut m, &store, "esc");
    keys(&mut m, &store, &type_query("status:pending"));
    assert_eq!(count(&m), expected(&|r| r.status.starts_with("pending")));
    keys(&mut m, &store, "esc");
    keys(&mut m, &store, &type_query("gold:<0.5 rounds:>0"));
    assert_eq!(
        count(&m),
        expected(&|r| r.r_gold.is_some_and(|g| g < 0.5) && r.rounds > 0)
    );
}

/// Issue #33: a task's elapsed time on Live is the loop's time on it; a decision taken later does
/// not stretch it.
#[test]
fn a_later_decision_does_not_stretch_a_tasks_elapsed_time() {
    let (mut m, _store) = loaded_model();
    let ev = |seq: i64, time: &str, kind: &str, payload: serde_json::Value| {
        tuplewright::engine::store::Event {
            seq,
            time: time.into(),
            kind: kind.into(),
            task_id: Some("timed_task".into()),
            payload,
        }
    };
    let base = m.live.last_seq;
    let events = vec![
        ev(
            base + 1,
            "2026-01-01T00:00:00.000Z",
            "round.phase",
            serde_json::json!({"phase": "generate", "detail": {"round": 1}}),
        ),
        ev(
            base + 2,
            "2026-01-01T00:00:05.000Z",
            "round.recorded",
            serde_json::json!({"round": 1, "verdict": "accepted"}),
        ),
        ev(
            base + 3,
            "2026-01-01T00:01:40.000Z",
            "decision",
            serde_json::json!({"after": "final"}),
        ),
    ];
    m.update(tuplewright::tui::model::Msg::Data(
        tuplewright::tui::data::DataUpdate::Events(events),
    ));
    let t = m
        .live
        .tasks
        .iter()
        .find(|t| t.task_id == "timed_task")
        .expect("the task's line");
    assert_eq!(t.status, "final", "the decision still shows");
    assert_eq!(
        t.last, "2026-01-01T00:00:05.000Z",
        "elapsed ends with the loop"
    );
}
