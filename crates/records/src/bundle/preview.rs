//! What `export` would do, without writing anything: every bundle it would write (new, replacing
//! an older one, or already identical on disk) and every tuple it leaves out with the reason —
//! its status is not exported (and which flag would export it), or it cannot be rendered. The
//! workbench's export preview and `tuplewright export --preview` show this before writing.

use std::path::PathBuf;

use serde::Serialize;

use super::export::{render, ExportError, ExportOptions};
use tuplewright_base::store::{Store, TaskFilter, TupleStatus};

/// What an export would do to one bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// No bundle on disk yet.
    New,
    /// A different bundle on disk is replaced.
    Replace,
    /// The bundle on disk is already identical.
    Unchanged,
}

/// A bundle the export would write.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Planned {
    /// The task.
    pub task_id: String,
    /// Its status.
    pub status: String,
    /// What happens to its directory.
    pub change: Change,
}

/// A tuple the export leaves out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Excluded {
    /// The task.
    pub task_id: String,
    /// Its status.
    pub status: String,
    /// Why it is left out, in words (and how to include it when a flag would).
    pub why: String,
}

/// The whole preview.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExportPreview {
    /// Where the bundles would go.
    pub out: PathBuf,
    /// Bundles written (or left identical), in id order.
    pub planned: Vec<Planned>,
    /// Tuples left out, in id order.
    pub excluded: Vec<Excluded>,
}

impl ExportPreview {
    /// Bundles with this change.
    pub fn count(&self, c: Change) -> usize {
        self.planned.iter().filter(|p| p.change == c).count()
    }

    /// One line: `12 to write (10 new, 2 replaced), 3 unchanged, 5 left out → out/`.
    pub fn summary(&self) -> String {
        let (new, rep) = (self.count(Change::New), self.count(Change::Replace));
        format!(
            "{} to write ({new} new, {rep} replaced), {} unchanged, {} left out → {}",
            new + rep,
            self.count(Change::Unchanged),
            self.excluded.len(),
            self.out.display()
        )
    }
}

/// Why a status is not exported by `opts`, and what would export it.
fn status_reason(status: &str) -> String {
    let meaning = TupleStatus::parse(status).map_or("unknown status", |s| s.meaning());
    let hint = match status {
        "vote_rejected" | "rollout_rejected" | "dropped" => {
            " — rejected; --include-rejected exports it"
        }
        "imported" | "verify_failed" => " — not verified here; verify it, or --include-unverified",
        "pending" | "in_loop" => " — not through the agreement loop yet",
        "loop_failed" => " — the loop never agreed on its scripts; re-run it",
        _ => " — not in [export] statuses / --status",
    };
    format!("status {status} ({meaning}){hint}")
}

/// Previews `export(store, opts)`: reads the store and the output folder, writes nothing.
pub fn preview(store: &Store, opts: &ExportOptions) -> Result<ExportPreview, ExportError> {
    let tasks = match &opts.task {
        Some(id) => vec![store.task(id)?],
        None => store.list_tasks(&TaskFilter::default())?,
    };
    let mut p = ExportPreview {
        out: opts.out.clone(),
        planned: Vec::new(),
        excluded: Vec::new(),
    };
    for task in tasks {
        let id = task.task.task_id.clone();
        if opts.task.is_none() && !opts.statuses.contains(&task.status) {
            p.excluded.push(Excluded {
                why: status_reason(&task.status),
                task_id: id,
                status: task.status,
            });
            continue;
        }
        match render(store, &task, &opts.url_prefix)? {
            Err(reason) => p.excluded.push(Excluded {
                task_id: id,
                status: task.status,
                why: format!("cannot be exported: {reason}"),
            }),
            Ok(files) => {
                let dir = opts.out.join(&id);
                let change = if !dir.exists() {
                    Change::New
                } else if super::export::identical(&dir, &files) {
                    Change::Unchanged
                } else {
                    Change::Replace
                };
                p.planned.push(Planned {
                    task_id: id,
                    status: task.status,
                    change,
                });
            }
        }
    }
    Ok(p)
}
