//! The State diff screen on the fixture store (states stored by the real loop): key sequences and
//! the lines they produce, a pre-v5 store, a rollout trial's final state, and snapshots.

use std::time::Duration;

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tuplewright::engine::env::{diff::diff, mask::Mask};
use tuplewright::engine::store::{Rollout, StateEndpoint, StateSnapshot, Store};
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::state_rows::Kind;
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;

use super::fixture::{keys, loaded_model, pump, pump_events};

fn render(model: &Model, theme: &Theme, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| view::draw(f, model, theme, "fixture.db"))
        .expect("draw");
    format!("{:?}", term.backend().buffer())
}

/// The visible text only (no styles), for assertions.
fn screen_text(model: &Model, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let theme = Theme::builtin("dark", true).expect("theme");
    term.draw(|f| view::draw(f, model, &theme, "fixture.db"))
        .expect("draw");
    let buf = term.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// A copy of the fixture store (tests that write must not touch the shared one).
fn copy_store(dir: &tempfile::TempDir) -> Store {
    let path = dir.path().join("copy.db");
    super::fixture::open()
        .conn()
        .sqlite()
        .unwrap()
        .execute("VACUUM INTO ?1", [path.to_string_lossy()])
        .expect("copy the fixture");
    Store::open(&path, Duration::from_secs(5)).expect("open the copy")
}

fn model_on(store: &Store) -> Model {
    let mut m = Model::new(Keymap::default(), false);
    let init = m.init();
    pump(&mut m, store, init);
    pump_events(&mut m, store);
    m
}

#[test]
fn key_4_loads_the_selected_tuples_states_and_the_table_is_the_engine_diff() {
    let (mut m, store) = loaded_model();
    let id = m.tuples.selected_id().expect("a tuple").to_string();
    let cmds = keys(&mut m, &store, "4");
    assert_eq!(m.screen, Screen::StateDiff);
    assert_eq!(cmds, vec![EngineCommand::LoadStates(id.clone())]);
    let st = &m.state_diff;
    assert_eq!(st.empty, None, "the loop stored states");
    // The latest round, initial vs golden, under the app's mask: the rows are the engine's diff.
    let rounds = store.rounds(&id).expect("rounds");
    let states = store
        .round_states(rounds.last().expect("a round").id)
        .expect("states");
    let (a, b) = (&states[0], &states[1]);
    assert_eq!(
        (a.endpoint, b.endpoint),
        (StateEndpoint::Initial, StateEndpoint::Golden)
    );
    let d = diff(&a.state, &b.state, &Mask::new(&a.volatile).expect("mask"));
    assert!(
        !d.state_diff.is_empty(),
        "the golden patch changed something"
    );
    let rows: Vec<&str> = st
        .lines
        .iter()
        .filter(|l| !l.heading)
        .map(|l| l.label.as_str())
        .collect();
    for path in d.state_diff.keys() {
        assert!(
            rows.iter().any(|r| r.starts_with(path.as_str())),
            "{path} missing from {rows:?}"
        );
    }
    assert!(
        st.lines.iter().all(|l| !l.masked),
        "masked keys hidden by default"
    );
    let text = screen_text(&m, 80, 24);
    assert!(text.contains("initial→golden"), "{text}");
}

#[test]
fn views_fold_search_and_masked_keys_by_keyboard() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "4");
    let table = m.state_diff.lines.clone();
    keys(&mut m, &store, "|");
    assert!(m.state_diff.split);
    assert!(
        m.state_diff.lines.len() <= table.len(),
        "side-by-side puts old and new on one line"
    );
    assert!(m
        .state_diff
        .lines
        .iter()
        .filter(|l| !l.heading)
        .all(|l| l.kind != Kind::Added || (l.left.is_none() && l.right.is_some())));
    keys(&mut m, &store, "| v");
    assert!(m.state_diff.tree);
    let open = m.state_diff.lines.len();
    assert!(m.state_diff.lines[0].fold.as_ref().is_some_and(|f| f.open));
    keys(&mut m, &store, "space");
    assert_eq!(m.state_diff.lines.len(), 1, "the environment root folded");
    keys(&mut m, &store, "enter");
    assert_eq!(m.state_diff.lines.len(), open, "enter unfolds it again");
    // Masked keys: shown dimmed on request, hidden again.
    keys(&mut m, &store, ".");
    let masked = m.state_diff.lines.iter().filter(|l| l.masked).count();
    assert!(masked > 0, "team-chat masks lastViewedAt / ui.*");
    keys(&mut m, &store, ".");
    assert!(m.state_diff.lines.iter().all(|l| !l.masked));
    // `/` searches within the screen (not the tuple list); n/N cycle through the matches.
    keys(&mut m, &store, "/ t o p i c enter");
    assert_eq!(m.screen, Screen::StateDiff);
    assert_eq!(m.state_diff.query, "topic");
    let matches = m.state_diff.matches.clone();
    assert!(!matches.is_empty(), "{:?}", m.state_diff.lines);
    assert_eq!(m.state_diff.cursor, matches[0]);
    keys(&mut m, &store, "n");
    assert_eq!(m.state_diff.cursor, matches[1 % matches.len()]);
    keys(&mut m, &store, "N");
    assert_eq!(m.state_diff.cursor, matches[0]);
    keys(&mut m, &store, "esc");
    assert!(m.state_diff.query.is_empty() && m.state_diff.matches.is_empty());
    // Without a search, n moves to the next tuple and loads its states.
    let cmds = keys(&mut m, &store, "n");
    assert_eq!(m.tuples.selected, 1);
    assert!(
        matches!(&cmds[..], [EngineCommand::LoadStates(id)] if Some(id.as_str()) == m.tuples.selected_id())
    );
}

#[test]
fn a_round_recorded_before_v5_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = copy_store(&dir);
    store
        .conn()
        .sqlite()
        .unwrap()
        .execute("DELETE FROM state_snapshots", [])
        .expect("forget the states");
    let mut m = model_on(&store);
    keys(&mut m, &store, "4");
    assert_eq!(
        m.state_diff.empty.as_deref(),
        Some("no state stored for this round (recorded before v5)")
    );
    let text = screen_text(&m, 80, 24);
    assert!(
        text.contains("no state stored for this round (recorded before v5)"),
        "{text}"
    );
}

#[test]
fn c_compares_with_a_rollout_trials_final_state() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = copy_store(&dir);
    let mut m = model_on(&store);
    let id = m.tuples.selected_id().expect("a tuple").to_string();
    let rounds = store.rounds(&id).expect("rounds");
    let states = store
        .round_states(rounds.last().expect("round").id)
        .expect("states");
    // A trial whose policy left the state as it found it, plus one new key.
    let mut fin = states[0].state.clone();
    fin["trialMarker"] = serde_json::json!("left by the policy");
    store
        .write(|tx| {
            let rid = tx.record_rollout(&Rollout {
                task_id: id.clone(),
                model: "noop".into(),
                trial: 1,
                reward: Some(0.0),
                judge_verdict: None,
                failure: None,
                detail: serde_json::json!({}),
                created_at: None,
            })?;
            tx.record_rollout_states(
                rid,
                &[StateSnapshot {
                    endpoint: StateEndpoint::Final,
                    env: states[0].env.clone(),
                    json: fin.to_string(),
                    volatile: states[0].volatile.clone(),
                }],
            )
        })
        .expect("record a trial");
    keys(&mut m, &store, "4 C");
    assert_eq!(m.state_diff.target_label(), "final · noop trial 1");
    let rows: Vec<(&str, Kind)> = m
        .state_diff
        .lines
        .iter()
        .filter(|l| !l.heading)
        .map(|l| (l.label.as_str(), l.kind))
        .collect();
    assert_eq!(rows, [("trialMarker", Kind::Added)]);
    keys(&mut m, &store, "C");
    assert_eq!(m.state_diff.target_label(), "golden", "C cycles back");
}

fn snap(name: &str, setup: &str) {
    for (w, h) in [(80, 24), (160, 48)] {
        for no_color in [false, true] {
            let (mut m, store) = loaded_model();
            m.update(Msg::Resize(w, h));
            keys(&mut m, &store, setup);
            let theme = Theme::builtin("dark", no_color).expect("theme");
            let tag = if no_color { "nocolor" } else { "color" };
            insta::assert_snapshot!(format!("{name}_{w}x{h}_{tag}"), render(&m, &theme, w, h));
        }
    }
}

#[test]
fn snapshot_state_diff_views() {
    snap("state_diff_table", "4");
    snap("state_diff_tree", "4 v");
    snap("state_diff_side_by_side", "4 |");
    snap("state_diff_tree_masked_shown", "4 v | .");
    snap("state_diff_search", "4 v / t o p i c");
}

#[test]
fn a_new_round_reloads_the_screen_and_brackets_switch_rounds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = copy_store(&dir);
    let mut m = model_on(&store);
    keys(&mut m, &store, "4");
    let id = m.state_diff.task_id.clone().expect("a tuple");
    let before = m.state_diff.lines.clone();
    // Another process records a round whose golden patch changed nothing.
    let last = store.rounds(&id).expect("rounds").pop().expect("a round");
    let same = store.round_states(last.id).expect("states")[0].clone();
    let snap = |endpoint| StateSnapshot {
        endpoint,
        env: same.env.clone(),
        json: same.state.to_string(),
        volatile: same.volatile.clone(),
    };
    let mut round = last.round.clone();
    round.round_no = None;
    store
        .write(|tx| {
            tx.record_round_with_states(
                &round,
                &[snap(StateEndpoint::Initial), snap(StateEndpoint::Golden)],
            )
        })
        .expect("record a round");
    let (update, _) = tuplewright::tui::worker::poll_events(&store, 0);
    let cmds = m.update(Msg::Data(update.expect("events")));
    assert!(
        cmds.contains(&EngineCommand::LoadStates(id.clone())),
        "{cmds:?}"
    );
    pump(&mut m, &store, cmds);
    let n = m.state_diff.data.as_ref().map_or(0, |d| d.rounds.len());
    assert_eq!(m.state_diff.round, n - 2, "the shown round stays selected");
    keys(&mut m, &store, "]");
    assert_eq!(m.state_diff.round, n - 1);
    let labels: Vec<&str> = m
        .state_diff
        .lines
        .iter()
        .map(|l| l.label.as_str())
        .collect();
    assert_eq!(labels, [same.env.as_str(), "(no change)"]);
    keys(&mut m, &store, "[");
    assert_eq!(m.state_diff.lines, before, "the earlier round's diff again");
}
