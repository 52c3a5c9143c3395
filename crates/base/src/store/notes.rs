//! Notes and tags on a tuple (schema v13, issue #33), append-only: every note stays as the tuple's
//! history; the tags in force are those of its newest note (each note restates the whole set).

use serde::Serialize;

use super::db::{params, OptionalExt, Row};
use super::{now, Result, Store, StoreError, Tx};

/// One note on a tuple.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// Row id (increasing).
    pub id: i64,
    /// The task.
    pub task_id: String,
    /// Who wrote it.
    pub author: String,
    /// Free text (may be empty when only the tags changed).
    pub text: String,
    /// The tuple's tags from this note on.
    pub tags: Vec<String>,
    /// When (RFC 3339).
    pub created_at: String,
}

const NOTE_COLUMNS: &str = "id, task_id, author, text, tags, created_at";

fn note_from_row(r: &Row<'_>) -> Result<Note> {
    let tags: String = r.get(4)?;
    Ok(Note {
        id: r.get(0)?,
        task_id: r.get(1)?,
        author: r.get(2)?,
        text: r.get(3)?,
        tags: serde_json::from_str(&tags)?,
        created_at: r.get(5)?,
    })
}

impl Tx<'_> {
    /// Appends a note (with the tuple's whole tag set) and a `note` event. Returns it.
    pub fn add_note(
        &self,
        task_id: &str,
        author: &str,
        text: &str,
        tags: &[String],
    ) -> Result<Note> {
        let known: Option<i64> = self
            .tx
            .query_row(
                "SELECT 1 FROM tasks WHERE task_id = ?1",
                params![task_id],
                |r| r.get(0),
            )
            .optional()?;
        if known.is_none() {
            return Err(StoreError::UnknownTask(task_id.to_string()));
        }
        let time = now();
        let tags_json = serde_json::to_string(tags)?;
        let id: i64 = self
            .tx
            .prepare_cached(
                "INSERT INTO notes (task_id, author, text, tags, created_at) \
                 VALUES (?1,?2,?3,?4,?5) RETURNING id",
            )?
            .query_row(params![task_id, author, text, tags_json, time], |r| {
                r.get(0)
            })?;
        let payload = serde_json::json!({"id": id, "author": author, "tags": tags});
        self.append_event("note", Some(task_id), &payload)?;
        Ok(Note {
            id,
            task_id: task_id.to_string(),
            author: author.to_string(),
            text: text.to_string(),
            tags: tags.to_vec(),
            created_at: time,
        })
    }
}

impl Store {
    /// Every note on a task, oldest first.
    pub fn notes(&self, task_id: &str) -> Result<Vec<Note>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {NOTE_COLUMNS} FROM notes WHERE task_id = ?1 ORDER BY id"
        ))?;
        let rows = stmt.query_map(params![task_id], note_from_row)?;
        rows.collect::<Result<_>>()
    }

    /// The tags in force on a task (those of its newest note; none without notes).
    pub fn tags(&self, task_id: &str) -> Result<Vec<String>> {
        Ok(self
            .notes(task_id)?
            .pop()
            .map(|n| n.tags)
            .unwrap_or_default())
    }

    /// The tags in force on every task that has notes: `(task_id, tags)`, by task id.
    pub fn all_tags(&self) -> Result<Vec<(String, Vec<String>)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT n.task_id, n.tags FROM notes n WHERE n.id = \
             (SELECT MAX(m.id) FROM notes m WHERE m.task_id = n.task_id) ORDER BY n.task_id",
        )?;
        let rows: Vec<(String, String)> = stmt
            .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_>>()?;
        rows.into_iter()
            .map(|(id, t)| Ok((id, serde_json::from_str(&t)?)))
            .collect()
    }
}
