//! Notes and tags on a tuple: what `tasks note ID TEXT [--tag T]… [--untag T]…` and the workbench
//! write. Each note restates the tuple's whole tag set (the previous one, plus the tags added,
//! minus those removed), so the newest note alone says which tags are in force.

use tuplewright_base::store::{Note, Store};

use super::{CurateConfig, CurateError};

/// A note to add.
#[derive(Debug, Clone, Default)]
pub struct NoteRequest<'a> {
    /// The task.
    pub task_id: &'a str,
    /// The author (the curator).
    pub author: &'a str,
    /// Free text (may be empty when tags change).
    pub text: &'a str,
    /// Tags to add.
    pub add: &'a [String],
    /// Tags to remove.
    pub remove: &'a [String],
}

/// Appends a note; tags are checked against `[curate] tags`. Refuses a note that says nothing.
pub fn add_note(
    store: &mut Store,
    config: &CurateConfig,
    req: &NoteRequest<'_>,
) -> Result<Note, CurateError> {
    for t in req.add {
        config.check_tag(t)?;
    }
    if req.text.trim().is_empty() && req.add.is_empty() && req.remove.is_empty() {
        return Err(CurateError::Invalid(format!(
            "a note on {} needs text or a --tag / --untag",
            req.task_id
        )));
    }
    let mut tags = store.tags(req.task_id)?;
    for t in req.add {
        let t = t.trim().to_string();
        if !tags.contains(&t) {
            tags.push(t);
        }
    }
    tags.retain(|t| !req.remove.iter().any(|r| r.trim() == t));
    tags.sort();
    let text = req.text.trim();
    Ok(store.write(|tx| tx.add_note(req.task_id, req.author, text, &tags))?)
}
