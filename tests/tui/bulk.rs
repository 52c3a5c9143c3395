//! Issue 33: bulk decisions driven through the action registry (keys → actions → the store
//! worker's writing path → the engine), on a voted copy of the fixture store: marks (`space`, `*`
//! over a search, `~`), one reason for the marked set, one decision per tuple under one group id,
//! `u` undoing the group; TestBackend + insta snapshots of the marked list and the prompt.

use tuplewright::engine::filter::{decidable, Action};
use tuplewright::engine::store::Store;
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::theme::Theme;

use super::filter_fixture::{keys_w, model_on, type_text, voted_copy};
use super::snapshots::{render, scrub};

fn statuses(store: &Store) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = store.statuses().unwrap().into_iter().collect();
    v.sort();
    v
}

fn snap(m: &Model, name: &str, no_color: bool) {
    let theme = Theme::builtin("dark", no_color).expect("theme");
    let text = render(m, &theme, 80, 24);
    let text = regex::Regex::new(r"g\d{8}T\d{6}-[0-9a-f]{6}")
        .unwrap()
        .replace_all(&text, "gGROUP-ID-XXXXXXXXXX");
    insta::assert_snapshot!(name, scrub(&text));
}

#[test]
fn bulk_reject_of_marked_tuples_is_one_group_and_u_undoes_it() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    m.update(Msg::Resize(80, 24));
    let before = statuses(&store);
    keys_w(&mut m, &mut store, "space space");
    assert_eq!(m.tuples.marked.len(), 2, "space marks and moves down");
    keys_w(&mut m, &mut store, "k space");
    assert_eq!(m.tuples.marked.len(), 1, "space again unmarks");
    keys_w(&mut m, &mut store, "space");
    let marked: Vec<String> = tuplewright::tui::model::bulk::marked_ids(&m);
    assert_eq!(marked.len(), 2);
    keys_w(&mut m, &mut store, "R");
    assert!(
        m.tuples.bulk.is_some(),
        "R on marked tuples asks for one reason"
    );
    type_text(&mut m, &mut store, "duplicate batch");
    snap(&m, "bulk_reason_prompt_80x24", false);
    keys_w(&mut m, &mut store, "enter");
    assert!(!m.tuples.bulk_busy, "the worker answered");
    let eligible: Vec<&String> = marked
        .iter()
        .filter(|id| {
            decidable(
                &before.iter().find(|(t, _)| t == *id).unwrap().1,
                &Action::Reject,
            )
        })
        .collect();
    assert!(!eligible.is_empty(), "{before:?}");
    let notice = m.notice.clone().unwrap_or_default();
    assert!(
        notice.contains(&format!("{} decided", eligible.len())),
        "{notice}"
    );
    assert!(
        m.tuples.marked.is_empty(),
        "marks cleared after the decision"
    );
    let groups: Vec<Option<String>> = eligible
        .iter()
        .map(|id| {
            let d = store.decisions(id).unwrap().pop().unwrap();
            assert_eq!(d.after, "dropped");
            assert_eq!(d.actor, "curator");
            assert!(d.reason.contains("duplicate batch"), "{}", d.reason);
            d.group_id
        })
        .collect();
    assert!(
        groups[0].is_some() && groups.iter().all(|g| *g == groups[0]),
        "{groups:?}"
    );
    snap(&m, "bulk_after_reject_80x24", true);
    // u on Tuples undoes the whole group.
    keys_w(&mut m, &mut store, "u");
    let notice = m.notice.clone().unwrap_or_default();
    assert!(notice.contains("undone"), "{notice}");
    assert_eq!(statuses(&store), before, "every tuple back where it was");
    // And again: nothing left to undo, said so.
    keys_w(&mut m, &mut store, "u");
    let notice = m.notice.clone().unwrap_or_default();
    assert!(notice.contains("no bulk decision"), "{notice}");
}

#[test]
fn star_marks_what_the_search_shows_and_tilde_inverts() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    let all = m.tuples.rows.len();
    let first = m.tuples.rows[0].id.clone();
    keys_w(&mut m, &mut store, "/");
    type_text(&mut m, &mut store, &first);
    keys_w(&mut m, &mut store, "enter *");
    assert_eq!(m.tuples.marked.len(), m.tuples.view.len());
    assert!(m.tuples.marked.contains(&first));
    let shown = m.tuples.marked.len();
    assert!(shown < all, "only what the search shows");
    keys_w(&mut m, &mut store, "c ~");
    assert_eq!(m.tuples.view.len(), all);
    assert_eq!(
        m.tuples.marked.len(),
        all - shown,
        "inverted over the whole list"
    );
    assert!(!m.tuples.marked.contains(&first));
    keys_w(&mut m, &mut store, "esc");
    assert!(m.tuples.marked.is_empty(), "esc clears the marks");
}

#[test]
fn bulk_keep_in_readonly_mode_is_refused_before_asking() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, true);
    let before = statuses(&store);
    keys_w(&mut m, &mut store, "* K");
    assert!(m.tuples.bulk.is_none(), "no prompt in read-only mode");
    assert!(m.notice.clone().unwrap_or_default().contains("read-only"));
    assert_eq!(statuses(&store), before);
}

#[test]
fn k_on_a_tuple_that_cannot_be_decided_refuses_before_asking_for_a_reason() {
    use tuplewright::engine::store::{DecisionSource, TupleStatus};
    let (_dir, path) = voted_copy();
    {
        let mut store = Store::open(&path, std::time::Duration::from_secs(5)).unwrap();
        let first = {
            let mut v: Vec<String> = store.statuses().unwrap().into_keys().collect();
            v.sort();
            v.remove(0)
        };
        store
            .write(|tx| {
                let (to, who) = (TupleStatus::LoopFailed, DecisionSource::Policy);
                tx.record_decision(&first, to, "loop", who, "failed", None)
            })
            .unwrap();
    }
    let (mut m, mut store) = model_on(&path, false);
    let before = statuses(&store);
    keys_w(&mut m, &mut store, "6 K");
    assert!(
        !m.filter.capturing(),
        "no reason asked for a loop_failed tuple"
    );
    let notice = m.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("loop_failed") && notice.contains("nothing asked"),
        "{notice}"
    );
    assert_eq!(statuses(&store), before);
}

#[test]
fn e_on_a_store_without_votes_says_why_nothing_is_filtered() {
    let (mut m, store) = super::fixture::loaded_model();
    assert!(
        m.tuples.rows.iter().all(|r| r.severity.is_empty()),
        "fixture has no votes"
    );
    super::fixture::keys(&mut m, &store, "e");
    let notice = m.notice.clone().unwrap_or_default();
    assert!(notice.contains("no critic votes"), "{notice:?}");
    assert!(m.tuples.severity.is_none());
}

#[test]
fn a_bulk_decisions_own_events_do_not_reload_the_rows_again() {
    use tuplewright::tui::data::{DataUpdate, EngineCommand};
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    m.update(Msg::Resize(80, 24));
    keys_w(&mut m, &mut store, "* R");
    type_text(&mut m, &mut store, "batch");
    keys_w(&mut m, &mut store, "enter");
    assert!(m.tuples.marked.is_empty(), "{:?}", m.notice);
    // (The decision's reload came back: the later event below could not reload otherwise.)
    // The worker reads the decision's events afterwards (in batches): its answer already
    // reloaded the rows and the statistics, so they reload nothing again.
    let events = store.events_after(0, 100_000).unwrap();
    let last = events.last().cloned().expect("the decision wrote events");
    assert!(events.iter().any(|e| e.kind == "decision"));
    let cmds = m.update(Msg::Data(DataUpdate::Events(events)));
    assert!(
        !cmds.contains(&EngineCommand::LoadRows),
        "its own events reloaded the rows again: {cmds:?}"
    );
    // A decision made after it (another face, another curator) still reloads them.
    let mut later = last;
    later.seq += 1;
    later.kind = "decision".into();
    let cmds = m.update(Msg::Data(DataUpdate::Events(vec![later])));
    assert!(cmds.contains(&EngineCommand::LoadRows), "{cmds:?}");
}

/// Issue 33: a bulk decision's answer without patched rows reloads the rows and the Live
/// summary, but not the whole-store statistics while Stats is not shown (Stats loads them when
/// opened); on Stats they are reloaded with the rows.
#[test]
fn bulk_answer_reloads_stats_only_on_the_stats_screen() {
    use tuplewright::engine::curate::bulk::BulkOutcome;
    use tuplewright::tui::action::Screen;
    use tuplewright::tui::bulk_data::{BulkDone, BulkResult};
    use tuplewright::tui::data::{DataUpdate, EngineCommand};
    let answer = || {
        Msg::Data(DataUpdate::Bulk(Box::new(BulkDone {
            result: Ok(BulkResult::Applied(BulkOutcome {
                group_id: "g20261206T210000-abcdef".into(),
                decided: vec!["t1".into()],
                skipped: Vec::new(),
            })),
            millis: 5,
            last_event: 0,
        })))
    };
    let (_dir, path) = voted_copy();
    let (mut m, _store) = model_on(&path, false);
    assert_eq!(m.screen, Screen::Tuples);
    let cmds = m.update(answer());
    assert!(cmds.contains(&EngineCommand::LoadRows), "{cmds:?}");
    assert!(!cmds.contains(&EngineCommand::LoadStats), "{cmds:?}");
    m.screen = Screen::Stats;
    let cmds = m.update(answer());
    assert!(cmds.contains(&EngineCommand::LoadStats), "{cmds:?}");
}

/// Sends the marked set's bulk command (or the group undo) through the real store worker and
/// returns the commands the model answers the worker's reply with (then runs them).
fn answer_of(
    m: &mut Model,
    store: &mut Store,
    cmds: Vec<tuplewright::tui::data::EngineCommand>,
) -> Vec<tuplewright::tui::data::EngineCommand> {
    use tuplewright::tui::data::EngineCommand;
    let cmd = cmds
        .into_iter()
        .find(|c| {
            matches!(
                c,
                EngineCommand::DecideBulk(_) | EngineCommand::UndoGroup(_)
            )
        })
        .expect("a bulk command");
    let mut out = Vec::new();
    for u in tuplewright::tui::worker::handle_write(store, &cmd, false) {
        out.extend(m.update(Msg::Data(u)));
    }
    // Then what the answer asks for (the view of the patched rows, or the reload).
    super::filter_fixture::pump_write(m, store, out.clone(), false);
    out
}

/// Issue 33 (a bulk decision's answer): the answer comes first, then the decided rows are
/// patched in place — every status and contested flag exactly what a full reload gives — and
/// only the view is computed again, with no reload of all rows; the group undo likewise. When
/// other rows came in while the decision ran, the answer reloads them instead of patching stale
/// ones, and so does a patch that arrives after they came in.
#[test]
fn a_bulk_answer_patches_the_decided_rows_instead_of_reloading_them() {
    use tuplewright::tui::data::{load_rows, EngineCommand};
    use tuplewright::tui::model::bulk::marked_ids;
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    keys_w(&mut m, &mut store, "* R");
    type_text(&mut m, &mut store, "batch");
    let decided = marked_ids(&m);
    let cmds = m.update(Msg::Key(tuplewright::tui::keymap::Key::plain(
        tuplewright::tui::keymap::Code::Enter,
    )));
    let answer = answer_of(&mut m, &mut store, cmds);
    // The answer comes first and asks for the patch (no reload of every row).
    assert!(!answer.contains(&EngineCommand::LoadRows), "{answer:?}");
    assert!(answer
        .iter()
        .any(|c| matches!(c, EngineCommand::PatchRows(_))));
    assert!(m.notice.clone().unwrap_or_default().contains("decided"));
    let reloaded = load_rows(&store).unwrap();
    assert_eq!(*m.tuples.rows, reloaded, "patched = reloaded");
    assert!(decided.iter().any(|id| reloaded
        .iter()
        .any(|r| r.id == *id && r.status == "dropped")));
    // The group undo patches them back.
    let cmds = m.update(Msg::Key(tuplewright::tui::keymap::Key::ch('u')));
    let answer = answer_of(&mut m, &mut store, cmds);
    assert!(!answer.contains(&EngineCommand::LoadRows), "{answer:?}");
    assert_eq!(*m.tuples.rows, load_rows(&store).unwrap());
    // Rows that came in while a decision ran are not overwritten with patched old ones.
    keys_w(&mut m, &mut store, "* K");
    type_text(&mut m, &mut store, "fine");
    let cmds = m.update(Msg::Key(tuplewright::tui::keymap::Key::plain(
        tuplewright::tui::keymap::Code::Enter,
    )));
    m.tuples.rows = std::sync::Arc::new(m.tuples.rows.to_vec());
    let answer = answer_of(&mut m, &mut store, cmds);
    assert!(answer.contains(&EngineCommand::LoadRows), "{answer:?}");
    // A patch that arrives after other rows came in is dropped for a reload.
    let shown = std::sync::Arc::new(load_rows(&store).unwrap());
    m.update(Msg::Data(tuplewright::tui::data::DataUpdate::Rows(
        shown.clone(),
        true,
    )));
    let stale = std::sync::Arc::new(shown.to_vec());
    let patched = Some(std::sync::Arc::new(shown.to_vec()));
    let cmds = m.update(Msg::Data(tuplewright::tui::data::DataUpdate::RowsPatched(
        Box::new((stale, patched)),
    )));
    assert_eq!(cmds, vec![EngineCommand::LoadRows]);
    assert!(std::sync::Arc::ptr_eq(&m.tuples.rows, &shown));
}

fn row(id: &str, app: &str, severity: &str, tags: &str) -> tuplewright::tui::data::TaskRow {
    tuplewright::tui::data::TaskRow {
        id: id.into(),
        instruction: "do it".into(),
        app: app.into(),
        domain: String::new(),
        difficulty: String::new(),
        status: "voted".into(),
        rounds: 1,
        r_gold: None,
        r_init: None,
        severity: severity.into(),
        tags: tags.into(),
        contested: false,
    }
}

/// Issue 33 (frame time): the Tuples table's column measure (longest id, longest value and
/// fill of each optional column shown) is taken once per rows/view/columns and reused by later
/// frames; the widths follow a column chooser change at once (a measure kept for other columns
/// would give one column's width to another), a new view and new rows.
#[test]
fn column_widths_are_measured_once_per_view_and_follow_a_chooser_change() {
    use std::sync::Arc;
    use tuplewright::tui::columns::Column;
    use tuplewright::tui::model::tuples::TuplesState;
    use tuplewright::tui::model::tuples_extent::ColumnExtent;
    use tuplewright::tui::view::tuples_cols::layout;
    let width = |t: &TuplesState, c: Column| {
        let l = layout(t, 200);
        l.cols.iter().find(|(k, _)| *k == c).map(|(_, w)| *w)
    };
    let mut t = TuplesState::default();
    t.rows = Arc::new(vec![
        row("short", "gitea", "", ""),
        row("a-much-longer-task-id-0001", "nextcloud", "P1", ""),
    ]);
    t.view = Arc::new(vec![0, 1]);
    assert_eq!(width(&t, Column::Id), Some(26));
    assert_eq!(width(&t, Column::App), Some(9));
    assert_eq!(width(&t, Column::Sev), Some(3));
    assert_eq!(width(&t, Column::Tags), None, "no tags shown: no room");
    let opts = [Column::App, Column::Domain, Column::Sev, Column::Tags];
    let kept = t.extent(&opts);
    assert_eq!(kept, ColumnExtent::measure(&t.rows, &t.view, &opts));
    assert_eq!(
        (kept.longest.clone(), kept.filled.clone()),
        (vec![9, 0, 2, 0], vec![2, 0, 1, 0])
    );
    // The chooser hides app: the widths are measured for the columns now shown.
    let at = |t: &TuplesState, c: Column| t.columns.order.iter().position(|(k, _)| *k == c);
    let app = at(&t, Column::App).unwrap();
    assert!(t.columns.toggle(app));
    assert_eq!(width(&t, Column::App), None);
    assert_eq!(width(&t, Column::Domain), None, "no domain shown: no room");
    assert_eq!(width(&t, Column::Sev), Some(3));
    assert_eq!(
        t.extent(&[Column::Domain, Column::Sev, Column::Tags])
            .longest,
        vec![0, 2, 0]
    );
    // Shown again, and moved behind tags: the same widths, in the chooser's order.
    assert!(t.columns.toggle(app));
    let moved = t.columns.shift(app, 3);
    assert_eq!(t.columns.order[moved].0, Column::App);
    assert_eq!(width(&t, Column::App), Some(9));
    let order: Vec<Column> = layout(&t, 200).cols.iter().map(|(c, _)| *c).collect();
    let (a, s) = (
        order.iter().position(|c| *c == Column::App),
        order.iter().position(|c| *c == Column::Sev),
    );
    assert!(a > s, "{order:?}");
    // New rows (a note gave a tag) and a new view (a search showing the short id only).
    t.rows = Arc::new(vec![
        row("short", "gitea", "", "needs-review"),
        row("a-much-longer-task-id-0001", "nextcloud", "P1", ""),
    ]);
    assert_eq!(width(&t, Column::Tags), Some(12));
    t.view = Arc::new(vec![0]);
    assert_eq!(width(&t, Column::Id), Some(5));
    assert_eq!(
        width(&t, Column::Sev),
        None,
        "the short one has no severity"
    );
}

/// Issue 33 (set-based writes): a bulk modify_query on a voted store records, tuple by tuple,
/// what one decision at a time through `filter::apply` records on a copy of the same store: the
/// same status moves, decision records and filter outcome (the released instruction and the
/// critics' grade kept).
#[test]
fn a_bulk_decision_records_what_one_decision_per_tuple_records() {
    use tuplewright::engine::curate::bulk::{apply_group, BulkRequest};
    use tuplewright::engine::filter::{apply, effective_outcome, DecisionRequest};
    use tuplewright::engine::store::DecisionSource;
    let ((_a, pa), (_b, pb)) = (voted_copy(), voted_copy());
    let open = |p: &std::path::Path| Store::open(p, std::time::Duration::from_secs(5)).unwrap();
    let (mut bulk, mut one) = (open(&pa), open(&pb));
    let mut ids: Vec<String> = bulk.statuses().unwrap().into_keys().collect();
    ids.sort();
    let action = Action::ModifyQuery("Archive the newest message.".into());
    let req = BulkRequest {
        task_ids: &ids,
        action: action.clone(),
        actor: "ana",
        reason: "batch",
        policy: Default::default(),
    };
    let out = apply_group(&mut bulk, &req).unwrap();
    assert!(!out.decided.is_empty());
    for id in &out.decided {
        let req = DecisionRequest {
            task_id: id,
            action: action.clone(),
            actor: "ana",
            source: DecisionSource::Human,
            reason: "batch",
            aggregate: None,
        };
        apply(&mut one, &req).unwrap();
    }
    assert_eq!(statuses(&bulk), statuses(&one));
    for id in &out.decided {
        let (b, o) = (bulk.decisions(id).unwrap(), one.decisions(id).unwrap());
        let key = |d: &tuplewright::engine::store::Decision| {
            (
                d.before.clone(),
                d.after.clone(),
                d.reason.clone(),
                d.actor.clone(),
                d.source.clone(),
            )
        };
        assert_eq!(
            b.iter().map(key).collect::<Vec<_>>(),
            o.iter().map(key).collect::<Vec<_>>()
        );
        let (mut fb, mut fo) = (
            effective_outcome(&bulk, id).unwrap().expect("an outcome"),
            effective_outcome(&one, id).unwrap().expect("an outcome"),
        );
        (fb.decision_id, fo.decision_id) = (0, 0);
        assert_eq!(fb, fo, "{id}");
    }
}

/// Issue 33: a bulk decision's thousands of `decision` events do not fill the Live timeline
/// with tuples no run touched; a decision on a tuple the timeline shows updates its status; the
/// log keeps every event.
#[test]
fn decisions_update_the_timelines_tuples_without_adding_others() {
    use super::fixture::{ev, feed};
    use serde_json::json;
    let mut m = Model::new(tuplewright::tui::keymap::Keymap::default(), false);
    m.screen = tuplewright::tui::action::Screen::Live;
    let phase = json!({"phase": "generate", "detail": {"round": 1}});
    let decided = json!({"before": "loop_accepted", "after": "dropped", "actor": "ann"});
    let mut events = vec![ev(1, 1, "round.phase", Some("ran"), phase)];
    events.extend((0..500).map(|i| {
        ev(
            2 + i,
            2,
            "decision",
            Some(&format!("bulk_{i:03}")),
            decided.clone(),
        )
    }));
    events.push(ev(502, 3, "decision", Some("ran"), decided.clone()));
    feed(&mut m, events);
    let ids: Vec<&str> = m.live.tasks.iter().map(|t| t.task_id.as_str()).collect();
    assert_eq!(ids, vec!["ran"]);
    assert_eq!(m.live.tasks[0].status, "dropped");
    assert_eq!(m.live.log.len(), 502);
}
