//! Bulk decisions from the workbench (issue #33): the commands the model sends for the marked
//! tuples and for a group undo, run on the store worker through the engine's
//! [`tuplewright_records::curate::bulk`] functions (the same ones `override --where` and
//! `override --undo-group` use), and what comes back.

use std::sync::Arc;
use std::time::Instant;

use tuplewright_base::store::Store;
use tuplewright_records::curate::bulk::{
    apply_group, latest_group, undo_group, BulkOutcome, BulkRequest, UndoOutcome,
};
use tuplewright_records::curate::rows::{patch_decided, TaskRow};
use tuplewright_records::curate::ConflictPolicy;
use tuplewright_records::filter::Action;

use super::data::DataUpdate;

/// One decision on the marked tuples.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkCmd {
    /// The marked tuples, in list order.
    pub task_ids: Vec<String>,
    /// keep, reject or modify_query.
    pub action: Action,
    /// The one reason.
    pub reason: String,
    /// The curator.
    pub actor: String,
    /// `[curate] conflict`.
    pub policy: ConflictPolicy,
}

/// Undo a bulk decision group (`None`: the curator's latest group still in force).
#[derive(Debug, Clone, PartialEq)]
pub struct UndoGroupCmd {
    /// The group, if known.
    pub group: Option<String>,
    /// The curator.
    pub actor: String,
}

/// Rows patched after a bulk command: the rows sent and the same rows with every tuple's status
/// and contested flag read again (what a decision changes); `None` when the store's tuples are
/// not the rows' any more (the workbench then reloads them).
pub type PatchedRows = (Arc<Vec<TaskRow>>, Option<Arc<Vec<TaskRow>>>);

/// What a bulk command did.
#[derive(Debug, Clone, PartialEq)]
pub enum BulkResult {
    /// Decided.
    Applied(BulkOutcome),
    /// A group undone.
    Undone(UndoOutcome),
}

/// The answer to a bulk command.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkDone {
    /// What happened, or why nothing was written.
    pub result: Result<BulkResult, String>,
    /// How long the store took, in milliseconds.
    pub millis: u128,
    /// The store's last event after the write (0 when unknown): the events up to it are the
    /// decision's own, already reflected by the patch or reload its answer starts.
    pub last_event: i64,
}

/// Runs a bulk decision on the worker's connection.
pub fn decide(store: &mut Store, cmd: &BulkCmd) -> DataUpdate {
    let t = Instant::now();
    let req = BulkRequest {
        task_ids: &cmd.task_ids,
        action: cmd.action.clone(),
        actor: &cmd.actor,
        reason: &cmd.reason,
        policy: cmd.policy,
    };
    let result = apply_group(store, &req)
        .map(BulkResult::Applied)
        .map_err(|e| e.to_string());
    done(store, result, t)
}

/// Runs a group undo on the worker's connection.
pub fn undo(store: &mut Store, cmd: &UndoGroupCmd) -> DataUpdate {
    let t = Instant::now();
    let group = match &cmd.group {
        Some(g) => Ok(Some(g.clone())),
        None => latest_group(store, &cmd.actor).map_err(|e| e.to_string()),
    };
    let result = match group {
        Ok(Some(g)) => undo_group(store, &g, &cmd.actor, "undone from the workbench")
            .map(BulkResult::Undone)
            .map_err(|e| e.to_string()),
        Ok(None) => Err(format!(
            "no bulk decision by {} left to undo (the Filter screen's u undoes one tuple's decision)",
            cmd.actor
        )),
        Err(e) => Err(e),
    };
    done(store, result, t)
}

fn done(store: &Store, result: Result<BulkResult, String>, t: Instant) -> DataUpdate {
    // The answer goes first (#33): the rows are patched on the workbench's next request.
    DataUpdate::Bulk(Box::new(BulkDone {
        result,
        millis: t.elapsed().as_millis(),
        last_event: store.last_event_seq().unwrap_or(0),
    }))
}

/// `rows` with every status and contested flag read again, after a bulk command's answer.
/// A store error only costs the full reload the workbench then asks for.
pub fn patch(store: &Store, rows: &Arc<Vec<TaskRow>>) -> DataUpdate {
    let patched = patch_decided(store, rows).ok().flatten().map(Arc::new);
    DataUpdate::RowsPatched(Box::new((Arc::clone(rows), patched)))
}
