//! What `run` does with tasks the store already holds. A task runs when its loop is unfinished
//! (`pending`, `in_loop`: it continues from its last recorded round, [`super::resume`]). Every
//! other task — accepted, failed, decided by the critics, a person or `verify`, imported — is left
//! exactly as it is and counted by status ([`RunPlan::skipped`]), so running the same task files
//! twice never undoes anyone's work.
//!
//! A finished task runs again only when asked for by id ([`record_rerun`], `run --rerun ID`): one
//! append-only decision by the person asking, back to `pending`, whose reason names what it
//! overrides (e.g. `human reject by ana at …`), plus a filter outcome `rerun` that takes the
//! earlier filter decision out of force (an undo of the re-run decision brings it back). The
//! decision history keeps everything. The re-run is a new attempt: K counts its rounds from 1,
//! while the stored round numbers continue after the task's last one.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::json;

use tuplewright_base::store::{Decision, DecisionSource, Store, StoreError, TupleStatus, Tx};
use tuplewright_records::filter::decide::{effective_outcome, OUTCOME_EVENT};

pub use tuplewright_records::filter::decide::RERUN_ACTION;

/// A task `run` leaves as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The task.
    pub task_id: String,
    /// Its status.
    pub status: String,
    /// A person's decision is in force on it (keep, modify_query or reject).
    pub by_person: bool,
}

/// What a requested re-run overrides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Override {
    /// The task.
    pub task_id: String,
    /// Its status before the re-run.
    pub status: String,
    /// The decision in force, in words: `human reject by ana at 2026-… (decision #12: …)`.
    pub what: String,
    /// True when that decision is a person's.
    pub by_person: bool,
}

/// What a run over some task files will do.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunPlan {
    /// Tasks to run, in file order.
    pub run: Vec<String>,
    /// Finished tasks left as they are, in file order.
    pub skipped: Vec<Skipped>,
    /// Finished tasks asked for by id: what each re-run overrides.
    pub reruns: Vec<Override>,
}

impl RunPlan {
    /// Skipped tasks per status (pipeline order): (status, count, of them decided by a person).
    pub fn skipped_by_status(&self) -> Vec<(TupleStatus, usize, usize)> {
        TupleStatus::ALL
            .into_iter()
            .filter_map(|s| {
                let of: Vec<&Skipped> = self
                    .skipped
                    .iter()
                    .filter(|k| k.status == s.as_str())
                    .collect();
                let human = of.iter().filter(|k| k.by_person).count();
                (!of.is_empty()).then_some((s, of.len(), human))
            })
            .collect()
    }

    /// The `run.skipped` event payload: counts per status, and the tasks a person decided.
    pub fn skipped_payload(&self) -> serde_json::Value {
        let by_status: serde_json::Map<String, serde_json::Value> = self
            .skipped_by_status()
            .into_iter()
            .map(|(s, n, human)| {
                (
                    s.as_str().to_string(),
                    json!({"count": n, "by_person": human, "meaning": s.meaning()}),
                )
            })
            .collect();
        let by_person: Vec<&str> = self
            .skipped
            .iter()
            .filter(|k| k.by_person)
            .map(|k| k.task_id.as_str())
            .collect();
        json!({"skipped": self.skipped.len(), "by_status": by_status,
               "decided_by_a_person": by_person})
    }
}

fn unfinished(status: &str) -> bool {
    status == TupleStatus::Pending.as_str() || status == TupleStatus::InLoop.as_str()
}

/// Sorts `ids` (the task files' tasks, all stored) into those to run and those left as they are;
/// `reruns` (a subset of `ids`) run whatever their status, and what each overrides is described.
pub fn plan(
    store: &Store,
    ids: &[String],
    reruns: &BTreeSet<String>,
) -> Result<RunPlan, StoreError> {
    let mut p = RunPlan::default();
    for id in ids {
        let status = store.effective_status(id)?;
        if unfinished(&status) {
            p.run.push(id.clone());
        } else if reruns.contains(id) {
            p.reruns.push(describe(store, id, &status)?);
            p.run.push(id.clone());
        } else {
            let by_person = effective_outcome(store, id)?.is_some_and(|o| o.source == "human");
            p.skipped.push(Skipped {
                task_id: id.clone(),
                status,
                by_person,
            });
        }
    }
    Ok(p)
}

/// The decision in force on a finished task, in words.
fn describe(store: &Store, id: &str, status: &str) -> Result<Override, StoreError> {
    let decisions = store.decisions(id)?;
    let outcome = effective_outcome(store, id)?;
    let (what, by_person) = match &outcome {
        Some(o) => {
            let d = decisions.iter().find(|d| d.id == o.decision_id);
            (
                format!(
                    "{} {} by {} at {} (decision #{}{}, status {status})",
                    o.source,
                    o.action,
                    o.actor,
                    d.map_or("?", |d| d.created_at.as_str()),
                    o.decision_id,
                    d.map(|d| format!(": {}", d.reason)).unwrap_or_default()
                ),
                o.source == "human",
            )
        }
        None => match decisions.last() {
            Some(d) => (
                format!(
                    "status {status} set by {} at {} (decision #{}: {})",
                    d.actor, d.created_at, d.id, d.reason
                ),
                d.source == "human",
            ),
            None => (format!("status {status}"), false),
        },
    };
    Ok(Override {
        task_id: id.to_string(),
        status: status.to_string(),
        what,
        by_person,
    })
}

/// Records the re-run `o` asked for by `actor`: a decision back to `pending` naming what it
/// overrides, and a `rerun` filter outcome. Refused (`StoreError::Invalid`) when the task's status
/// changed since `o` was described (someone else decided it meanwhile).
pub fn record_rerun(tx: &Tx<'_>, o: &Override, actor: &str) -> Result<Decision, StoreError> {
    let now = tx
        .task(&o.task_id)?
        .ok_or_else(|| StoreError::UnknownTask(o.task_id.clone()))?
        .status;
    if now != o.status {
        return Err(StoreError::Invalid(format!(
            "{} changed from {} to {now} meanwhile; not re-run",
            o.task_id, o.status
        )));
    }
    let reason = format!("rerun (run --rerun): overrides {}", o.what);
    let d = tx.record_decision(
        &o.task_id,
        TupleStatus::Pending,
        actor,
        DecisionSource::Human,
        &reason,
        None,
    )?;
    let payload = json!({
        "decision_id": d.id,
        "action": RERUN_ACTION,
        "revised_query": null,
        "actor": actor,
        "source": DecisionSource::Human.as_str(),
        "overrides": o.what,
    });
    tx.append_event(OUTCOME_EVENT, Some(&o.task_id), &payload)?;
    Ok(d)
}
