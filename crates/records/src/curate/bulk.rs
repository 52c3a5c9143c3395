//! Bulk decisions: one action (keep / reject / modify_query) with one reason on a set of tuples,
//! in one transaction. Each tuple still gets its own append-only decision (and its
//! `filter.outcome` event), written set-based ([`super::bulk_set`]: one statement per table for
//! the whole set); all of them carry the same group id, so
//! the set is undone as a group ([`undo_group`]) by compensating decisions under that id. Tuples
//! that cannot take the decision (not past the agreement loop) are skipped and named, never
//! half-decided.

use serde::Serialize;

use crate::filter::{decidable, Action};
use tuplewright_base::store::{DecisionSource, Store, StoreError};

use super::CurateError;

/// A bulk decision to make.
#[derive(Debug, Clone)]
pub struct BulkRequest<'a> {
    /// The tuples (duplicates are decided once).
    pub task_ids: &'a [String],
    /// keep, reject or modify_query (undo and queue are refused).
    pub action: Action,
    /// The curator.
    pub actor: &'a str,
    /// One reason for every tuple (required).
    pub reason: &'a str,
    /// What to do when the decision contradicts another curator's (`[curate] conflict`).
    pub policy: super::ConflictPolicy,
}

/// A tuple left out of a bulk decision, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The task.
    pub task_id: String,
    /// Why (its status, or that it is unknown).
    pub why: String,
}

/// What a bulk decision would do (the preview) or did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BulkOutcome {
    /// The group id (empty in a preview).
    pub group_id: String,
    /// The tuples decided (or to decide), in the order given.
    pub decided: Vec<String>,
    /// The tuples left out.
    pub skipped: Vec<Skipped>,
}

/// What a group undo did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UndoOutcome {
    /// The group.
    pub group_id: String,
    /// Tuples whose group decision was undone.
    pub undone: Vec<String>,
    /// Tuples left as they are: decided again since, or already undone.
    pub skipped: Vec<Skipped>,
}

/// A new group id: `g` + UTC time to the second + 6 random hex digits (sortable, unique).
pub fn new_group_id() -> String {
    let rand = uuid::Uuid::new_v4().simple().to_string();
    format!(
        "g{}-{}",
        chrono::Utc::now().format("%Y%m%dT%H%M%S"),
        &rand[..6]
    )
}

fn check(req: &BulkRequest<'_>) -> Result<(), CurateError> {
    if matches!(req.action, Action::Undo | Action::Queue) {
        return Err(CurateError::Invalid(format!(
            "a bulk decision is keep, reject or modify_query, not {}",
            req.action.name()
        )));
    }
    if req.reason.trim().is_empty() {
        return Err(CurateError::Invalid(
            "a bulk decision needs one reason (--reason TEXT)".into(),
        ));
    }
    if matches!(&req.action, Action::ModifyQuery(q) if q.trim().is_empty()) {
        return Err(CurateError::Invalid(
            "modify_query needs the new instruction (--query TEXT)".into(),
        ));
    }
    if req.task_ids.is_empty() {
        return Err(CurateError::Invalid("no tuple to decide".into()));
    }
    Ok(())
}

fn dedup(ids: &[String]) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    ids.iter()
        .map(String::as_str)
        .filter(|id| seen.insert(*id))
        .collect()
}

/// What [`apply_group`] would do now, writing nothing.
pub fn preview(store: &Store, req: &BulkRequest<'_>) -> Result<BulkOutcome, CurateError> {
    check(req)?;
    let statuses = store.statuses()?;
    let mut out = BulkOutcome::default();
    for id in dedup(req.task_ids) {
        match statuses.get(id) {
            Some(s) if decidable(s, &req.action) => out.decided.push(id.to_string()),
            Some(s) => out.skipped.push(Skipped {
                task_id: id.to_string(),
                why: format!("status {s} cannot be decided"),
            }),
            None => out.skipped.push(Skipped {
                task_id: id.to_string(),
                why: "no such task".into(),
            }),
        }
    }
    Ok(out)
}

/// Decides every tuple of the request in one transaction under a new group id. Nothing is
/// written when no tuple can be decided.
pub fn apply_group(store: &mut Store, req: &BulkRequest<'_>) -> Result<BulkOutcome, CurateError> {
    check(req)?;
    let group = new_group_id();
    let ids = dedup(req.task_ids);
    store.write(|tx| super::bulk_set::apply_in(tx, req, &ids, &group))
}

/// Undoes every decision of `group` that is still in force, in one transaction; the undos carry
/// the group id too. A tuple decided again since keeps its later decision (it is named).
pub fn undo_group(
    store: &mut Store,
    group: &str,
    actor: &str,
    reason: &str,
) -> Result<UndoOutcome, CurateError> {
    let all = store.group_decisions(group)?;
    if all.is_empty() {
        return Err(CurateError::Invalid(format!(
            "no bulk decision with group id `{group}` in the store"
        )));
    }
    let undone_already: std::collections::HashSet<i64> =
        all.iter().filter_map(|d| d.compensates).collect();
    let reason = if reason.trim().is_empty() {
        format!("group {group} undone")
    } else {
        format!("group {group} undone: {reason}")
    };
    store.write(|tx| -> Result<UndoOutcome, CurateError> {
        let mut out = UndoOutcome {
            group_id: group.to_string(),
            ..Default::default()
        };
        // Each task's decisions in force, read once (set-based) inside the transaction; a
        // decision is undone only while it is its task's latest in force.
        let mut in_force = tx.in_force_by_task_of_group(group)?;
        let mut targets = Vec::new();
        // Newest first: a conflict-policy decision made after a curator's is undone before it.
        for d in all.iter().rev().filter(|d| d.compensates.is_none()) {
            if undone_already.contains(&d.id) {
                out.skipped.push(Skipped {
                    task_id: d.task_id.clone(),
                    why: "already undone".into(),
                });
                continue;
            }
            let stack = in_force.get_mut(&d.task_id);
            let latest = stack.as_ref().and_then(|s| s.last().copied());
            if latest != Some(d.id) {
                out.skipped.push(Skipped {
                    task_id: d.task_id.clone(),
                    why: "no longer in force (decided again or undone since)".into(),
                });
                continue;
            }
            // Undone: no longer in force; the decision below it (if any) is the latest now.
            if let Some(s) = stack {
                s.pop();
            }
            targets.push(d);
            if d.actor != super::agreement::CONFLICT_ACTOR {
                out.undone.push(d.task_id.clone());
            }
        }
        // Every compensating decision in one set-based write (#33).
        super::bulk_set::compensate_in(
            tx,
            &targets,
            (actor, DecisionSource::Human),
            &reason,
            group,
        )?;
        Ok(out)
    })
}

/// The latest bulk decision group in the store that still has a decision in force by `actor`
/// (what the workbench's group undo undoes), if any.
pub fn latest_group(store: &Store, actor: &str) -> Result<Option<String>, StoreError> {
    store.latest_open_group(actor)
}
