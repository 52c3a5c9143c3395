//! The note editor's and saved views' worker side (issue #33): notes are appended through the
//! engine's [`tuplewright_records::curate::notes::add_note`] (as `tasks note`), the views file is
//! written by [`tuplewright_records::curate::views::save`] (atomically).

use std::path::PathBuf;

use tuplewright_base::store::Store;
use tuplewright_records::curate::notes::{add_note, NoteRequest};
use tuplewright_records::curate::views::{save, ViewsFile};
use tuplewright_records::curate::CurateConfig;

use super::data::DataUpdate;

/// A note to append from the workbench.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteCmd {
    /// The tuple.
    pub task_id: String,
    /// The curator.
    pub author: String,
    /// Free text (may be empty when tags change).
    pub text: String,
    /// Tags added.
    pub add: Vec<String>,
    /// Tags removed.
    pub remove: Vec<String>,
    /// `[curate] tags` (empty: any tag).
    pub allowed: Vec<String>,
}

/// The views file to write.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveViews {
    /// Where.
    pub path: PathBuf,
    /// What.
    pub file: ViewsFile,
}

/// Appends the note on the worker's connection.
pub fn note(store: &mut Store, cmd: &NoteCmd) -> DataUpdate {
    let config = CurateConfig {
        tags: cmd.allowed.clone(),
        ..Default::default()
    };
    let req = NoteRequest {
        task_id: &cmd.task_id,
        author: &cmd.author,
        text: &cmd.text,
        add: &cmd.add,
        remove: &cmd.remove,
    };
    DataUpdate::Noted(Box::new(
        add_note(store, &config, &req).map_err(|e| e.to_string()),
    ))
}

/// Reads a tuple's notes.
pub fn notes(store: &Store, task_id: &str) -> DataUpdate {
    match store.notes(task_id) {
        Ok(n) => DataUpdate::Notes(task_id.to_string(), n),
        Err(e) => DataUpdate::Error(format!("reading the notes of {task_id}: {e}")),
    }
}

/// Writes the views file; only a failure is reported.
pub fn save_views(cmd: &SaveViews) -> Vec<DataUpdate> {
    match save(&cmd.path, &cmd.file) {
        Ok(()) => Vec::new(),
        Err(e) => vec![DataUpdate::Error(e.to_string())],
    }
}
