//! Where a task's loop continues. A task left `pending` or `in_loop` by a kill, Ctrl-C or an
//! infrastructure failure keeps the rounds it already has: the loop goes on from the round after
//! the last recorded one, with that round's REVIEW.md as the Generator's feedback, and K counts
//! every round of the attempt — so `--max-rounds 3` never gives a task more than three rounds,
//! however often it is interrupted. A task whose loop had finished (accepted or failed) and is run
//! again starts a fresh attempt.

use tuplewright_base::store::{Store, StoreError, TupleStatus};

/// The loop rounds a task already has in its current attempt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Continuation {
    /// Rounds recorded (the next round is `done + 1`).
    pub done: u32,
    /// REVIEW.md of the last recorded round (the feedback for the next one).
    pub review: Option<String>,
    /// The last recorded round passed C1–C5 but the acceptance was never recorded (a kill between
    /// the two writes): accept without another round.
    pub passed: bool,
}

/// Only rounds the agreement loop made count (not imported bundles, not `verify` runs).
const LOOP_SOURCE: &str = "loop";

/// Reads the current attempt of `task_id` from the store.
pub fn continuation(store: &Store, task_id: &str) -> Result<Continuation, StoreError> {
    let status = store.effective_status(task_id)?;
    let unfinished = [TupleStatus::Pending, TupleStatus::InLoop]
        .iter()
        .any(|s| s.as_str() == status);
    if !unfinished {
        return Ok(Continuation::default());
    }
    // The attempt began after the last decision that settled the task (if it ever was).
    let settled_at = store
        .decisions(task_id)?
        .into_iter()
        .filter(|d| {
            d.after != TupleStatus::Pending.as_str() && d.after != TupleStatus::InLoop.as_str()
        })
        .map(|d| d.created_at)
        .next_back();
    let rounds: Vec<_> = store
        .rounds(task_id)?
        .into_iter()
        .filter(|r| r.round.source == LOOP_SOURCE)
        .filter(|r| {
            settled_at
                .as_deref()
                .is_none_or(|t| r.round.started_at.as_str() >= t)
        })
        .collect();
    let last = rounds.last();
    Ok(Continuation {
        done: rounds.len() as u32,
        review: last.map(|r| r.round.review_md.clone()),
        passed: last.is_some_and(|r| r.round.verdict == "pass"),
    })
}
