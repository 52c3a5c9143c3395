//! Point 1 of issue 15: one selection shared by every screen, decisions bound to the tuple drawn
//! when the key was pressed. Key bursts are fed with no data in between (as a fast typist or a
//! paste does: every key is in the model before any worker answers), then the workers' results
//! arrive in order through the real store-worker handler.

use tuplewright::engine::filter::Action as Decision;
use tuplewright::engine::store::Store;
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::DataUpdate;
use tuplewright::tui::keymap::{parse_keys, Key};
use tuplewright::tui::matcher::{compute_view, new_matcher};
use tuplewright::tui::model::filter_prompt::Prompt;
use tuplewright::tui::model::{Model, Msg};

use super::filter_fixture::{keys_w, model_on, pump_write, voted_copy};

fn ids(m: &Model) -> Vec<String> {
    m.tuples.rows.iter().map(|r| r.id.clone()).collect()
}

/// Every key into the model first, then every worker result (the worst case for a stale read).
fn burst(m: &mut Model, store: &mut Store, keys: Vec<Key>) {
    let mut cmds = Vec::new();
    for k in keys {
        cmds.extend(m.update(Msg::Key(k)));
    }
    pump_write(m, store, cmds, false);
}

fn chars(text: &str) -> Vec<Key> {
    text.chars().map(Key::ch).collect()
}

fn seq(s: &str) -> Vec<Key> {
    parse_keys(s).expect("keys")
}

#[test]
fn burst_search_enter_6_k_decides_on_the_tuple_the_search_found() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    assert_eq!(m.selection(), Some(ids[0].as_str()));
    let target = &ids[2];
    let mut keys = seq("/");
    keys.extend(chars(target));
    keys.extend(seq("enter 6 K"));
    keys.extend(chars("right tuple"));
    keys.extend(seq("enter"));
    let before = store.decisions(target).expect("decisions").len();
    let untouched = store.decisions(&ids[0]).expect("decisions").len();
    burst(&mut m, &mut store, keys);
    let after = store.decisions(target).expect("decisions");
    assert_eq!(
        after.len(),
        before + 1,
        "the searched tuple got the decision"
    );
    let d = after.last().expect("decision");
    assert_eq!(d.reason, "keep: right tuple");
    assert_eq!(d.actor, "curator");
    assert_eq!(
        store.decisions(&ids[0]).expect("decisions").len(),
        untouched,
        "the tuple selected before the search was not decided"
    );
    assert_eq!(m.deferred_keys(), 0, "every typed-ahead key was replayed");
}

#[test]
fn burst_move_6_r_names_and_decides_the_moved_to_tuple() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    burst(&mut m, &mut store, seq("j 6 R"));
    let Prompt::Reason {
        task_id, action, ..
    } = &m.filter.prompt
    else {
        panic!("no reason prompt: {:?}", m.filter.prompt);
    };
    assert_eq!(task_id, &ids[1], "the prompt names the tuple on screen");
    assert_eq!(*action, Decision::Reject);
    assert_eq!(
        m.filter.current().map(|d| d.task_id.as_str()),
        Some(ids[1].as_str())
    );
}

#[test]
fn a_burst_after_a_decision_waits_for_the_auto_advance() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    // ids[1] and ids[2] need a decision: keep ids[1], then R at once acts on ids[2].
    let mut keys = seq("j 6 K");
    keys.extend(chars("ok"));
    keys.extend(seq("enter R"));
    burst(&mut m, &mut store, keys);
    assert_eq!(
        store
            .decisions(&ids[1])
            .expect("d")
            .last()
            .map(|d| d.reason.clone()),
        Some("keep: ok".into())
    );
    assert!(
        matches!(&m.filter.prompt, Prompt::Reason { task_id, action: Decision::Reject, .. } if *task_id == ids[2]),
        "R after the decision is for the advanced-to tuple: {:?}",
        m.filter.prompt
    );
}

#[test]
fn a_decision_prompt_is_cancelled_when_the_selection_changes_under_it() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    keys_w(&mut m, &mut store, "j 6 K");
    assert!(m.filter.capturing());
    // A reload (another process decided, say) lists only ids[3]: the selection moves.
    m.tuples.query = ids[3].clone();
    let spec = m.tuples.request();
    let view = compute_view(&spec, &mut new_matcher());
    let cmds = m.update(Msg::Data(DataUpdate::View(view)));
    pump_write(&mut m, &mut store, cmds, false);
    assert_eq!(m.selection(), Some(ids[3].as_str()));
    assert!(!m.filter.capturing(), "the prompt for ids[1] is gone");
    let notice = m.notice.clone().unwrap_or_default();
    assert!(
        notice.contains(&ids[1]) && notice.contains("cancelled"),
        "{notice}"
    );
    assert_eq!(
        m.filter.current().map(|d| d.task_id.as_str()),
        Some(ids[3].as_str()),
        "the Filter screen follows the selection"
    );
}

#[test]
fn every_screen_shows_the_one_selection() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    keys_w(&mut m, &mut store, "enter");
    assert_eq!(m.inspector.task_id.as_deref(), Some(ids[0].as_str()));
    // Moving on Tuples then opening the Inspector by its tab shows the new selection.
    keys_w(&mut m, &mut store, "2 j j 3");
    assert_eq!(m.screen, Screen::Inspector);
    assert_eq!(m.inspector.task_id.as_deref(), Some(ids[2].as_str()));
    keys_w(&mut m, &mut store, "6");
    assert_eq!(m.filter.task_id.as_deref(), Some(ids[2].as_str()));
    keys_w(&mut m, &mut store, "4");
    assert_eq!(m.state_diff.task_id.as_deref(), Some(ids[2].as_str()));
    keys_w(&mut m, &mut store, "5");
    assert_eq!(m.reward.task_id.as_deref(), Some(ids[2].as_str()));
    // n on the Filter screen moves the shared selection; the Inspector follows it.
    keys_w(&mut m, &mut store, "6 n 3");
    assert_eq!(m.selection(), Some(ids[3].as_str()));
    assert_eq!(m.inspector.task_id.as_deref(), Some(ids[3].as_str()));
}

#[test]
fn a_store_error_drops_typed_ahead_keys_instead_of_applying_them_blind() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    // 6 asks for the Filter data; K waits for it; the load fails.
    let cmds = m.update(Msg::Key(Key::ch('6')));
    assert!(!cmds.is_empty());
    m.update(Msg::Key(Key::ch('K')));
    assert_eq!(m.deferred_keys(), 1);
    m.update(Msg::Data(DataUpdate::Error(
        "store error: disk I/O error".into(),
    )));
    assert_eq!(m.deferred_keys(), 0);
    assert!(
        !m.filter.capturing(),
        "no prompt opened on data never drawn"
    );
    assert!(m.notice.as_deref().is_some_and(|n| n.contains("dropped")));
    // Keys work again afterwards.
    keys_w(&mut m, &mut store, "2");
    assert_eq!(m.screen, Screen::Tuples);
}

#[test]
fn a_burst_into_the_inspector_acts_on_the_tuple_once_it_is_drawn() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    // `z l` before the detail arrived would be reset by its arrival; it waits instead.
    burst(&mut m, &mut store, seq("j 3 t t z l"));
    assert_eq!(m.screen, Screen::Inspector);
    let shown = m
        .inspector
        .detail
        .as_ref()
        .map(|d| d.task.task.task_id.clone());
    assert_eq!(shown.as_deref(), Some(ids[1].as_str()));
    assert_eq!(
        m.inspector.hscroll, 8,
        "the sideways scroll applies to the drawn tuple"
    );
    assert_eq!(
        m.inspector.pane.label(),
        "golden_patch.py",
        "t t after the load: REVIEW.md → setup → golden"
    );
    assert_eq!(m.deferred_keys(), 0);
}
