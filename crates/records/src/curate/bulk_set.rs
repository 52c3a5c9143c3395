//! The set-based writes behind [`super::bulk::apply_group`] and [`super::bulk::undo_group`]
//! (issue #33): the whole marked set is staged once and written with one statement per table
//! (decisions, statuses, events) through the store's [`Tx::record_decisions`] and
//! [`Tx::append_events`], instead of six statements per tuple. What is written is what the
//! one-tuple path writes: per tuple one append-only decision, one `decision` event and (for a
//! decision, not an undo) one `filter.outcome` event right after it, all under the group id.

use std::collections::HashMap;

use crate::filter::decide::{outcome_json, parse_outcome, target_status, OUTCOME_EVENT};
use crate::filter::{Action, DecisionRequest};
use tuplewright_base::store::{
    decision_json, now, Decision, DecisionSource, StagedDecision, StagedEvent, Tx,
};

use super::bulk::{BulkOutcome, BulkRequest, Skipped};
use super::CurateError;

/// The reason recorded for `action` (as the one-tuple path words it).
fn reason_of(action: &Action, reason: &str) -> String {
    match action {
        Action::ModifyQuery(q) => format!("{}: {reason} (instruction: {q:?})", action.name()),
        a => format!("{}: {reason}", a.name()),
    }
}

/// Decides `ids` (distinct, in order) under `group` inside `tx`; tuples that cannot take the
/// decision are skipped and named. Writes nothing when none can.
pub fn apply_in(
    tx: &Tx<'_>,
    req: &BulkRequest<'_>,
    ids: &[&str],
    group: &str,
) -> Result<BulkOutcome, CurateError> {
    let found = tx.stage_tasks(ids)?;
    let mut out = BulkOutcome {
        group_id: group.to_string(),
        ..Default::default()
    };
    let reason = reason_of(&req.action, req.reason);
    let mut rows = Vec::with_capacity(found.len());
    let mut instructions = Vec::with_capacity(found.len());
    let mut next = found.into_iter().peekable();
    for (pos, &id) in ids.iter().enumerate() {
        let Some((_, status, instruction)) = next.next_if(|(p, _, _)| *p == pos) else {
            out.skipped.push(Skipped {
                task_id: id.to_string(),
                why: "no such task".into(),
            });
            continue;
        };
        match target_status(&status, &req.action, DecisionSource::Human) {
            Some(after) => {
                rows.push(StagedDecision {
                    task_id: id,
                    before: status,
                    after: after.as_str().to_string(),
                    reason: reason.clone(),
                    compensates: None,
                });
                instructions.push(instruction);
                out.decided.push(id.to_string());
            }
            None => out.skipped.push(Skipped {
                task_id: id.to_string(),
                why: format!("status {status} cannot be decided"),
            }),
        }
    }
    if rows.is_empty() {
        return Ok(out);
    }
    // The outcomes in force before (a person's decision keeps the critics' grade).
    let prev = tx.staged_latest_payloads(OUTCOME_EVENT)?;
    let time = now();
    let decisions = tx.record_decisions(
        &rows,
        (req.actor, DecisionSource::Human),
        Some(group),
        &time,
    )?;
    let mut events: Vec<StagedEvent<'_>> = Vec::with_capacity(2 * decisions.len());
    for (d, instruction) in decisions.iter().zip(&instructions) {
        let one = DecisionRequest {
            task_id: &d.task_id,
            action: req.action.clone(),
            actor: req.actor,
            source: DecisionSource::Human,
            reason: req.reason,
            aggregate: None,
        };
        let before = match prev.get(&d.task_id) {
            Some(p) => parse_outcome(p)?,
            None => None,
        };
        let outcome = outcome_json(d, &one, instruction, before.as_ref(), Some(group))?;
        events.push(("decision", &d.task_id, decision_json(d).to_string()));
        events.push((OUTCOME_EVENT, &d.task_id, outcome.to_string()));
    }
    tx.append_events(&events, &time)?;
    if req.policy != super::ConflictPolicy::LaterWins {
        for d in &decisions {
            super::agreement::enforce_in(tx, req.policy, &d.task_id, Some(group))?;
        }
    }
    Ok(out)
}

/// Appends the compensating decisions of `targets` (each still its task's latest in force,
/// newest first) under `group`, with their `decision` events: one set-based write. A task with
/// two targets is moved back twice, in order.
pub fn compensate_in(
    tx: &Tx<'_>,
    targets: &[&Decision],
    who: (&str, DecisionSource),
    reason: &str,
    group: &str,
) -> Result<(), CurateError> {
    if targets.is_empty() {
        return Ok(());
    }
    let mut status: HashMap<String, String> = tx.statuses_of_group(group)?;
    let mut rows = Vec::with_capacity(targets.len());
    for d in targets {
        let before = status
            .get(&d.task_id)
            .cloned()
            .ok_or_else(|| tuplewright_base::store::StoreError::UnknownTask(d.task_id.clone()))?;
        status.insert(d.task_id.clone(), d.before.clone());
        rows.push(StagedDecision {
            task_id: &d.task_id,
            before,
            after: d.before.clone(),
            reason: format!("undo decision #{}: {reason}", d.id),
            compensates: Some(d.id),
        });
    }
    let time = now();
    let undos = tx.record_decisions(&rows, who, Some(group), &time)?;
    let events: Vec<StagedEvent<'_>> = undos
        .iter()
        .map(|d| ("decision", d.task_id.as_str(), decision_json(d).to_string()))
        .collect();
    tx.append_events(&events, &time)?;
    Ok(())
}
