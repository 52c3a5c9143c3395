//! The generator's running tallies — matrix counts, tasks per app and per leaf, the tasks kept —
//! and the window of tasks admitted tentatively while their sentence-embedding verdict is pending
//! ([`super::dedup::Dedup::settle`]). A tentative task counts everywhere at once (later draws see
//! it); when the verdict rejects it, every count is undone and its slot drawn again.

use std::collections::BTreeMap;

use serde_json::Value;

use super::dedup::Dedup;
use super::embed::{EmbedError, Embedder, OnError};
use super::matrix::{Cell, Matrix};

/// A task admitted by the cheap checks, waiting for the sentence-embedding verdict.
pub(super) struct Pending {
    /// The task JSON without its `task_id`.
    pub task: Value,
    /// `task_id` without its serial number (numbered when kept, so ids stay contiguous).
    pub id_stem: String,
    /// The cell recorded in the matrix.
    pub cell: Cell,
    /// Its apps.
    pub apps: Vec<&'static str>,
    /// Index of its taxonomy leaf in the generator's leaf list.
    pub leaf: usize,
    /// The leaf's `app:path`.
    pub leaf_key: String,
}

/// Counts of the tasks kept and pending.
pub(super) struct Books {
    pub matrix: Matrix,
    pub batch_apps: BTreeMap<&'static str, u32>,
    pub leaf_counts: Vec<u32>,
    pub tasks: Vec<Value>,
    pending: Vec<Pending>,
    /// Tasks before this batch (task ids continue after them).
    first_serial: usize,
}

impl Books {
    /// Empty tallies over `matrix` (the prior tasks' counts) and `leaves` taxonomy leaves.
    pub fn new(matrix: Matrix, leaves: usize, prior: usize) -> Self {
        Self {
            matrix,
            batch_apps: BTreeMap::new(),
            leaf_counts: vec![0; leaves],
            tasks: Vec::new(),
            pending: Vec::new(),
            first_serial: prior,
        }
    }

    /// Tasks kept plus tasks pending.
    pub fn len(&self) -> usize {
        self.tasks.len() + self.pending.len()
    }

    /// Counts `p` everywhere and queues it for its verdict.
    pub fn add(&mut self, p: Pending) {
        self.matrix.record(&p.cell, &p.apps, Some(&p.leaf_key));
        for a in &p.apps {
            *self.batch_apps.entry(a).or_insert(0) += 1;
        }
        self.leaf_counts[p.leaf] += 1;
        self.pending.push(p);
    }

    /// Settles the pending tasks with `dedup` (one batched embedding call): keeps the accepted
    /// ones (numbering their ids) and undoes the counts of the rejected ones. Returns how many
    /// were rejected.
    pub fn settle(
        &mut self,
        dedup: &mut Dedup,
        embedder: Option<&dyn Embedder>,
        on_error: OnError,
    ) -> Result<usize, EmbedError> {
        if self.pending.is_empty() {
            return Ok(0);
        }
        let verdicts = dedup.settle(embedder, on_error)?;
        let mut rejected = 0;
        for (p, keep) in std::mem::take(&mut self.pending).into_iter().zip(verdicts) {
            if keep {
                let mut task = p.task;
                let serial = self.first_serial + self.tasks.len() + 1;
                task["task_id"] = Value::String(format!("{}_{serial:05}", p.id_stem));
                self.tasks.push(task);
                continue;
            }
            rejected += 1;
            self.matrix.forget(&p.cell, &p.apps, Some(&p.leaf_key));
            for a in &p.apps {
                if let Some(n) = self.batch_apps.get_mut(a) {
                    *n = n.saturating_sub(1);
                }
            }
            self.leaf_counts[p.leaf] = self.leaf_counts[p.leaf].saturating_sub(1);
        }
        Ok(rejected)
    }
}
