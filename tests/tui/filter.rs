//! The Filter screen on a voted copy of the loop-built fixture store: key sequences through the
//! model with every command executed by the real store-worker handler (`handle_write`, which
//! applies decisions through `filter::apply`): loading, deciding with a reason, the modify_query
//! editor, undo, auto-advance, reloads from the event log, the recorded aggregate. Read-only
//! mode, parity, snapshots and the tmux test have their own files.

use std::time::Duration;

use tuplewright::engine::filter::{effective_outcome, Action as Decision, Outcome};
use tuplewright::engine::store::Store;
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::filter_data::DecideCmd;
use tuplewright::tui::model::filter_prompt::{Prefill, Prompt};
use tuplewright::tui::worker::handle_write;

use super::filter_fixture::{keys_w, model_on, pump_write, type_text, voted_copy};

/// Ids of the fixture tuples in list order: [modify majority, queued P2, queued P3, kept].
fn ids(m: &tuplewright::tui::model::Model) -> Vec<String> {
    m.tuples.rows.iter().map(|r| r.id.clone()).collect()
}

fn last_decision(store: &Store, id: &str) -> tuplewright::engine::store::Decision {
    store.decisions(id).expect("decisions").pop().expect("one")
}

#[test]
fn votes_aggregate_outcome_and_history_load_for_the_selected_tuple() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    let cmds = keys_w(&mut m, &mut store, "6");
    assert_eq!(m.screen, Screen::Filter);
    assert_eq!(cmds, vec![EngineCommand::LoadFilter(ids[0].clone())]);
    let d = m.filter.current().expect("loaded");
    assert_eq!(d.votes.len(), 3);
    assert!(d
        .votes
        .iter()
        .any(|v| v.heuristic && v.critic == "scripted"));
    let agg = d.aggregate.as_ref().expect("aggregate");
    assert_eq!((agg.keep, agg.modify_query, agg.quorum), (1, 2, 2));
    let best = d.best_revision.as_ref().expect("a revision");
    assert_eq!(
        best.critic, "stand-in-llm-90",
        "the highest-confidence modify vote"
    );
    assert!(
        matches!(&agg.outcome, Outcome::ModifyQuery { revised_query } if *revised_query == best.query)
    );
    assert_eq!(
        d.outcome.as_ref().map(|o| o.action.as_str()),
        Some("modify_query")
    );
    assert_eq!(
        d.history.last().map(|h| h.actor.as_str()),
        Some("critic-vote")
    );
    // n follows the list; the failed votes of a queued tuple are shown as failed.
    keys_w(&mut m, &mut store, "n");
    let d = m.filter.current().expect("loaded");
    assert_eq!(d.task_id, ids[1]);
    assert_eq!(d.votes.iter().filter(|v| v.verdict == "failed").count(), 2);
    assert!(matches!(
        d.aggregate.as_ref().map(|a| &a.outcome),
        Some(Outcome::Undecided)
    ));
}

#[test]
fn keep_with_a_reason_is_recorded_by_the_engine_and_auto_advances_then_wraps_out() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    keys_w(&mut m, &mut store, "j 6 K");
    assert!(matches!(m.filter.prompt, Prompt::Reason { .. }));
    keys_w(&mut m, &mut store, "enter");
    assert!(m
        .notice
        .as_deref()
        .is_some_and(|n| n.contains("reason is required")));
    assert!(
        m.filter.capturing(),
        "an empty reason keeps the prompt open"
    );
    type_text(&mut m, &mut store, "setup is fine, reward checks the ask");
    let cmds = keys_w(&mut m, &mut store, "enter");
    assert!(
        matches!(&cmds[0], EngineCommand::Decide(DecideCmd { task_id, action: Decision::Keep, reason, actor })
        if *task_id == ids[1] && reason == "setup is fine, reward checks the ask" && actor == "curator")
    );
    let d = last_decision(&store, &ids[1]);
    assert_eq!((d.actor.as_str(), d.source.as_str()), ("curator", "human"));
    assert_eq!(
        (d.before.as_str(), d.after.as_str()),
        ("needs_human", "voted")
    );
    assert_eq!(d.reason, "keep: setup is fine, reward checks the ask");
    // Auto-advance: the next tuple needing a decision is the other queued one.
    assert_eq!(m.tuples.selected_id(), Some(ids[2].as_str()));
    assert_eq!(
        m.filter.current().map(|d| d.task_id.as_str()),
        Some(ids[2].as_str())
    );
    assert_eq!(m.tuples.rows[1].status, "voted", "the list was reloaded");
    keys_w(&mut m, &mut store, "R");
    type_text(&mut m, &mut store, "ambiguous");
    keys_w(&mut m, &mut store, "enter");
    assert_eq!(last_decision(&store, &ids[2]).after, "dropped");
    assert!(m
        .notice
        .as_deref()
        .is_some_and(|n| n.contains("no tuple left that needs a decision")));
    // Esc cancels a decision: nothing is sent or written.
    let before = store.decisions(&ids[2]).expect("decisions").len();
    let cmds = keys_w(&mut m, &mut store, "K esc");
    assert!(cmds.is_empty() && !m.filter.capturing());
    assert_eq!(store.decisions(&ids[2]).expect("decisions").len(), before);
}

#[test]
fn modify_query_opens_the_editor_prefilled_with_the_best_revision_and_records_the_edit() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    keys_w(&mut m, &mut store, "j j 6 M");
    let best = m
        .filter
        .current()
        .and_then(|d| d.best_revision.clone())
        .expect("best");
    let Prompt::Editor { prefill, .. } = &m.filter.prompt else {
        panic!("editor not open: {:?}", m.filter.prompt)
    };
    assert_eq!(
        *prefill,
        Prefill::BestRevision {
            critic: "stand-in-llm-80".into(),
            confidence: 0.8
        }
    );
    assert_eq!(m.filter.prompt.editor_text(), best.query);
    // The cursor starts at the end: typed text is appended; enter is a new line, not confirm.
    type_text(&mut m, &mut store, " Today");
    keys_w(
        &mut m,
        &mut store,
        "backspace backspace backspace backspace backspace",
    );
    type_text(&mut m, &mut store, "Now");
    let edited = format!("{} Now", best.query);
    assert_eq!(m.filter.prompt.editor_text(), edited);
    keys_w(&mut m, &mut store, "ctrl-s");
    assert!(
        matches!(&m.filter.prompt, Prompt::Reason { action: Decision::ModifyQuery(q), .. } if *q == edited)
    );
    type_text(&mut m, &mut store, "name the target");
    keys_w(&mut m, &mut store, "enter");
    let out = effective_outcome(&store, &ids[2])
        .expect("outcome")
        .expect("some");
    assert_eq!(out.action, "modify_query");
    assert_eq!(out.revised_query.as_deref(), Some(edited.as_str()));
    assert_eq!(
        (out.actor.as_str(), out.source.as_str()),
        ("curator", "human")
    );
    assert_eq!(last_decision(&store, &ids[2]).after, "voted");
    // Auto-advanced to the other queued tuple, which has no modify vote: the editor starts from
    // the original instruction and says so.
    assert_eq!(m.tuples.selected_id(), Some(ids[1].as_str()));
    keys_w(&mut m, &mut store, "M");
    assert!(matches!(
        &m.filter.prompt,
        Prompt::Editor {
            prefill: Prefill::Original,
            ..
        }
    ));
    let original = m
        .filter
        .current()
        .map(|d| d.instruction.clone())
        .expect("loaded");
    assert_eq!(m.filter.prompt.editor_text(), original);
}

#[test]
fn undo_appends_a_compensating_decision_and_returns_to_the_tuple() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    let outcome_before = effective_outcome(&store, &ids[1]).expect("outcome");
    keys_w(&mut m, &mut store, "j 6 K");
    type_text(&mut m, &mut store, "fine");
    keys_w(&mut m, &mut store, "enter");
    assert_eq!(m.tuples.selected_id(), Some(ids[2].as_str()), "advanced");
    let kept = last_decision(&store, &ids[1]);
    let cmds = keys_w(&mut m, &mut store, "u");
    assert!(
        matches!(&cmds[0], EngineCommand::Decide(DecideCmd { task_id, action: Decision::Undo, .. }) if *task_id == ids[1])
    );
    let undo = last_decision(&store, &ids[1]);
    assert_eq!(undo.compensates, Some(kept.id));
    assert_eq!(
        (undo.before.as_str(), undo.after.as_str()),
        ("voted", "needs_human")
    );
    assert_eq!(
        effective_outcome(&store, &ids[1]).expect("outcome"),
        outcome_before
    );
    assert_eq!(
        m.tuples.selected_id(),
        Some(ids[1].as_str()),
        "back on the undone tuple"
    );
    assert!(m.filter.decided.is_empty());
    // Nothing decided in this session: undo acts on the shown tuple (here the critics' vote).
    keys_w(&mut m, &mut store, "n n");
    assert_eq!(m.filter.task_id.as_deref(), Some(ids[3].as_str()));
    let n = store.decisions(&ids[3]).expect("decisions").len();
    keys_w(&mut m, &mut store, "u");
    assert_eq!(store.decisions(&ids[3]).expect("decisions").len(), n + 1);
    assert_eq!(last_decision(&store, &ids[3]).actor, "curator");
    assert_eq!(store.task(&ids[3]).expect("task").status, "loop_accepted");
    let n = n + 1;
    // An invalid decision (empty instruction) is refused by the engine with nothing written.
    let res = handle_write(
        &mut store,
        &EngineCommand::Decide(DecideCmd {
            task_id: ids[3].clone(),
            action: Decision::ModifyQuery("  ".into()),
            reason: "x".into(),
            actor: "curator".into(),
        }),
        false,
    );
    assert!(matches!(&res[0], DataUpdate::Decided(d) if d.result.is_err()));
    m.update(tuplewright::tui::model::Msg::Data(res[0].clone()));
    assert!(m
        .notice
        .as_deref()
        .is_some_and(|s| s.contains("nothing recorded")));
    assert_eq!(store.decisions(&ids[3]).expect("decisions").len(), n);
}

#[test]
fn a_decision_from_another_process_reloads_the_shown_tuple() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    keys_w(&mut m, &mut store, "j 6");
    let seq = store.last_event_seq().expect("seq");
    // Another process (here: another connection) decides the shown tuple via `override`'s path.
    let mut other = Store::open(&p, Duration::from_secs(5)).expect("second connection");
    tuplewright::engine::filter::apply(
        &mut other,
        &tuplewright::engine::filter::DecisionRequest {
            task_id: &ids[1],
            action: Decision::Reject,
            actor: "someone-else",
            source: tuplewright::engine::store::DecisionSource::Human,
            reason: "decided elsewhere",
            aggregate: None,
        },
    )
    .expect("decide elsewhere");
    let (update, _) = tuplewright::tui::worker::poll_events(&store, seq);
    let cmds = m.update(tuplewright::tui::model::Msg::Data(
        update.expect("new events"),
    ));
    assert!(
        cmds.contains(&EngineCommand::LoadFilter(ids[1].clone())),
        "{cmds:?}"
    );
    super::filter_fixture::pump_write(&mut m, &mut store, cmds, false);
    let d = m.filter.current().expect("loaded");
    assert_eq!(d.status, "dropped");
    assert_eq!(
        d.history.last().map(|h| h.actor.as_str()),
        Some("someone-else")
    );
}

#[test]
fn the_aggregate_shown_is_the_one_the_critics_recorded_even_after_a_second_vote() {
    use tuplewright::engine::filter::aggregate::{aggregate, Ballot};
    use tuplewright::engine::filter::scripted::ScriptedCritic;
    use tuplewright::engine::filter::{filter_task, Critic, CriticVote, Quorum};
    use tuplewright::tui::filter_data::load_filter;
    let (_d, p) = voted_copy();
    let mut store = Store::open(&p, Duration::from_secs(5)).expect("open");
    let id = store
        .list_tasks(&Default::default())
        .expect("tasks")
        .into_iter()
        .map(|t| t.task.task_id)
        .min()
        .expect("a task");
    // The recorded aggregate round-trips and equals the engine's rules over the stored ballots.
    let ballots: Vec<Ballot> = store
        .votes(&id)
        .expect("votes")
        .into_iter()
        .map(|v| match serde_json::from_value::<CriticVote>(v.vote) {
            Ok(cv) => Ballot::Valid(cv),
            Err(e) => Ballot::Failed(e.to_string()),
        })
        .collect();
    let shown = load_filter(&store, &id).expect("load").aggregate;
    assert_eq!(shown, Some(aggregate(&ballots, Quorum::Strict)));
    // Undo the critics' decision and vote again with one scripted critic: the screen shows the
    // second aggregate (1 voter), not a mix of both votes (4 ballots).
    tuplewright::engine::filter::apply(
        &mut store,
        &tuplewright::engine::filter::DecisionRequest {
            task_id: &id,
            action: Decision::Undo,
            actor: "curator",
            source: tuplewright::engine::store::DecisionSource::Human,
            reason: "re-vote",
            aggregate: None,
        },
    )
    .expect("undo");
    let critics: Vec<Box<dyn Critic>> = vec![Box::new(ScriptedCritic)];
    let verdict = filter_task(&mut store, &critics, Quorum::Strict, &id).expect("second vote");
    let d = load_filter(&store, &id).expect("load");
    assert_eq!(d.votes.len(), 4, "every vote is listed");
    assert_eq!(d.aggregate, Some(verdict.aggregate));
    assert_eq!(d.aggregate.map(|a| a.voters), Some(1));
}

#[test]
fn tuples_filter_and_sort_by_the_worst_critic_severity() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let worst: Vec<(String, String)> = m
        .tuples
        .rows
        .iter()
        .map(|r| (r.id.clone(), r.severity.clone()))
        .collect();
    let conn = store.conn().sqlite().unwrap();
    for (id, sev) in &worst {
        let expected: Option<String> = conn
            .query_row(
                "SELECT MIN(severity) FROM votes WHERE task_id = ?1 AND severity GLOB 'P[0-3]'",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(sev, &expected.unwrap_or_default(), "{id}");
    }
    let voted: Vec<&String> = worst
        .iter()
        .filter(|(_, s)| !s.is_empty())
        .map(|(s, _)| s)
        .collect();
    assert!(
        !voted.is_empty(),
        "the voted fixture has severities: {worst:?}"
    );
    // `e` cycles to the first severity present; only those rows stay.
    keys_w(&mut m, &mut store, "2 e");
    let first = m.tuples.severity.clone().expect("a severity filter");
    let shown: Vec<&str> = m
        .tuples
        .view
        .iter()
        .map(|&i| m.tuples.rows[i as usize].severity.as_str())
        .collect();
    assert!(
        !shown.is_empty() && shown.iter().all(|s| *s == first),
        "{shown:?}"
    );
    // `c` clears it; sorting by severity puts the worst first and unvoted last.
    keys_w(&mut m, &mut store, "c");
    assert_eq!(m.tuples.severity, None);
    while m.tuples.sort != tuplewright::tui::matcher::SortKey::Severity {
        keys_w(&mut m, &mut store, "s");
    }
    let order: Vec<&str> = m
        .tuples
        .view
        .iter()
        .map(|&i| m.tuples.rows[i as usize].severity.as_str())
        .collect();
    let mut sorted = order.clone();
    sorted.sort_by_key(|s| (s.is_empty(), *s));
    assert_eq!(order, sorted);
}

/// Narrows the Tuples list to one status, as the `f` key does, and computes the view.
fn only_status(m: &mut tuplewright::tui::model::Model, store: &mut Store, status: &str) {
    m.tuples.status = Some(status.into());
    let spec = m.tuples.request();
    pump_write(m, store, vec![EngineCommand::View(spec)], false);
}

#[test]
fn undo_brings_the_shared_selection_back_even_when_the_decision_took_the_tuple_out_of_the_view() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    // The curator works through the queue: only needs_human tuples listed.
    only_status(&mut m, &mut store, "needs_human");
    assert_eq!(m.selection(), Some(ids[1].as_str()));
    keys_w(&mut m, &mut store, "6 K");
    type_text(&mut m, &mut store, "fine");
    keys_w(&mut m, &mut store, "enter");
    assert_eq!(m.selection(), Some(ids[2].as_str()), "auto-advanced");
    keys_w(&mut m, &mut store, "u");
    assert_eq!(store.task(&ids[1]).expect("task").status, "needs_human");
    // The shared selection (what Rollouts launches on) is the undone tuple, not the one advanced to.
    assert_eq!(
        m.selection(),
        Some(ids[1].as_str()),
        "back on the undone tuple"
    );
    assert_eq!(m.filter.task_id.as_deref(), Some(ids[1].as_str()));
    assert_eq!(
        m.filter.current().map(|d| d.status.as_str()),
        Some("needs_human")
    );
    assert_eq!(m.deferred_keys(), 0);
    // A filter the undone tuple no longer passes is cleared to show it, and the notice says so.
    keys_w(&mut m, &mut store, "K");
    type_text(&mut m, &mut store, "fine after all");
    keys_w(&mut m, &mut store, "enter");
    only_status(&mut m, &mut store, "voted");
    keys_w(&mut m, &mut store, "u");
    assert_eq!(store.task(&ids[1]).expect("task").status, "needs_human");
    assert_eq!(m.selection(), Some(ids[1].as_str()));
    assert_eq!(m.tuples.status, None);
    assert!(
        m.notice.as_deref().is_some_and(|n| n.contains("filters")),
        "{:?}",
        m.notice
    );
    assert_eq!(m.filter.task_id.as_deref(), Some(ids[1].as_str()));
}

/// Feeds the store's events after `seq` to the model as the store worker's polling does, running
/// what they ask for; returns the last seq.
fn events_arrive(m: &mut tuplewright::tui::model::Model, store: &mut Store, seq: i64) -> i64 {
    let events = store.events_after(seq, 10_000).expect("events");
    let last = events.last().map_or(seq, |e| e.seq);
    let cmds = m.update(tuplewright::tui::model::Msg::Data(DataUpdate::Events(
        events,
    )));
    pump_write(m, store, cmds, false);
    last
}

/// Issue 33 ("no tuple left that needs a decision" while the screen moves on): with the Tuples
/// list narrowed to needs_human, deciding the last queued tuple says none is left — and the
/// Filter screen stays on the tuple just decided (its new outcome shown) while the reload, its
/// view (which no longer lists it) and the decision's events come in; it does not move on to
/// another tuple or to nothing.
#[test]
fn deciding_the_last_queued_tuple_under_a_filter_stays_on_it_while_events_arrive() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, false);
    let ids = ids(&m);
    let mut seq = store.last_event_seq().expect("seq");
    only_status(&mut m, &mut store, "needs_human");
    keys_w(&mut m, &mut store, "6 K");
    type_text(&mut m, &mut store, "fine");
    keys_w(&mut m, &mut store, "enter");
    assert_eq!(
        m.filter.task_id.as_deref(),
        Some(ids[2].as_str()),
        "auto-advanced"
    );
    seq = events_arrive(&mut m, &mut store, seq);
    keys_w(&mut m, &mut store, "R");
    type_text(&mut m, &mut store, "ambiguous");
    keys_w(&mut m, &mut store, "enter");
    let said = m.notice.clone().unwrap_or_default();
    assert!(
        said.contains("no tuple left that needs a decision"),
        "{said}"
    );
    events_arrive(&mut m, &mut store, seq);
    assert_eq!(m.screen, Screen::Filter);
    assert_eq!(
        m.filter.task_id.as_deref(),
        Some(ids[2].as_str()),
        "the screen moved on"
    );
    let shown = m.filter.current().expect("the decided tuple is shown");
    assert_eq!(
        (shown.task_id.as_str(), shown.status.as_str()),
        (ids[2].as_str(), "dropped")
    );
    assert_eq!(
        m.notice.as_deref(),
        Some(said.as_str()),
        "the notice still holds"
    );
    // Moving on is the curator's: n goes to the next tuple the list shows (none here).
    keys_w(&mut m, &mut store, "n");
    assert_eq!(m.filter.task_id.as_deref(), m.selection());
}
