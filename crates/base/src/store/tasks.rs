//! Tasks and their tuple rows.

use super::db::{params, Conn, OptionalExt, Row};

use super::{
    now, Labels, Result, Store, StoreError, StoredTask, TaskRecord, TupleStatus, Tx, Upsert,
};

const TASK_COLUMNS: &str = "t.task_id, t.instruction, t.context, t.platform, t.domain, t.apps, \
     t.difficulty, t.scenario, t.task_type, t.source_pass, t.app_type, s.original_json, t.origin, \
     u.status, t.created_at, t.updated_at";

/// The joins behind [`TASK_COLUMNS`].
const TASK_FROM: &str = "tasks t JOIN tuples u ON u.task_id = t.task_id \
     JOIN task_sources s ON s.task_id = t.task_id";

fn task_from_row(r: &Row<'_>) -> Result<(StoredTask, String, String)> {
    let apps: String = r.get(5)?;
    let original: String = r.get(11)?;
    let task = TaskRecord {
        task_id: r.get(0)?,
        instruction: r.get(1)?,
        context: r.get(2)?,
        labels: Labels {
            platform: r.get(3)?,
            domain: r.get(4)?,
            apps: Vec::new(),
            difficulty: r.get(6)?,
            scenario: r.get(7)?,
            task_type: r.get(8)?,
            source_pass: r.get(9)?,
        },
        app_type: r.get(10)?,
        original_json: serde_json::Value::Null,
        origin: r.get(12)?,
    };
    let stored = StoredTask {
        task,
        status: r.get(13)?,
        created_at: r.get(14)?,
        updated_at: r.get(15)?,
    };
    Ok((stored, apps, original))
}

fn finish(parts: (StoredTask, String, String)) -> Result<StoredTask> {
    let (mut stored, apps, original) = parts;
    stored.task.labels.apps = serde_json::from_str(&apps)?;
    stored.task.original_json = serde_json::from_str(&original)?;
    Ok(stored)
}

impl Tx<'_> {
    /// Inserts or updates a task (and creates its `pending` tuple row). Identical content is a no-op.
    pub fn upsert_task(&self, task: &TaskRecord) -> Result<Upsert> {
        let apps = serde_json::to_string(&task.labels.apps)?;
        let original = serde_json::to_string(&task.original_json)?;
        let l = &task.labels;
        let existing = get_task(self.tx, &task.task_id)?;
        let time = now();
        let outcome = match existing {
            // `origin` is provenance only: the same content from another path is unchanged.
            Some(old)
                if TaskRecord {
                    origin: task.origin.clone(),
                    ..old.task.clone()
                } == *task =>
            {
                return Ok(Upsert::Unchanged)
            }
            Some(_) => {
                self.tx.prepare_cached("UPDATE tasks SET instruction=?2, context=?3, platform=?4, domain=?5, apps=?6, \
                     difficulty=?7, scenario=?8, task_type=?9, source_pass=?10, app_type=?11, \
                     origin=?12, updated_at=?13 WHERE task_id=?1")?.execute(params![
                        task.task_id, task.instruction, task.context, l.platform, l.domain, apps,
                        l.difficulty, l.scenario, l.task_type, l.source_pass, task.app_type,
                        task.origin, time
                    ],
                )?;
                self.tx
                    .prepare_cached(
                        "UPDATE task_sources SET original_json = ?2 WHERE task_id = ?1",
                    )?
                    .execute(params![task.task_id, original])?;
                Upsert::Updated
            }
            None => {
                self.tx.prepare_cached("INSERT INTO tasks (task_id, instruction, context, platform, domain, apps, \
                     difficulty, scenario, task_type, source_pass, app_type, origin, \
                     created_at, updated_at) \
                     VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?13)")?.execute(params![
                        task.task_id, task.instruction, task.context, l.platform, l.domain, apps,
                        l.difficulty, l.scenario, l.task_type, l.source_pass, task.app_type,
                        task.origin, time
                    ],
                )?;
                self.tx
                    .prepare_cached(
                        "INSERT INTO task_sources (task_id, original_json) VALUES (?1, ?2)",
                    )?
                    .execute(params![task.task_id, original])?;
                self.tx
                    .prepare_cached(
                        "INSERT INTO tuples (task_id, status, updated_at) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![task.task_id, TupleStatus::Pending.as_str(), time])?;
                Upsert::Inserted
            }
        };
        Ok(outcome)
    }

    /// The task as seen inside this transaction.
    pub fn task(&self, task_id: &str) -> Result<Option<StoredTask>> {
        get_task(self.tx, task_id)
    }
}

fn get_task(conn: &Conn, task_id: &str) -> Result<Option<StoredTask>> {
    let sql = format!("SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.task_id = ?1");
    conn.prepare_cached(&sql)?
        .query_row(params![task_id], task_from_row)
        .optional()?
        .map(finish)
        .transpose()
}

/// Filter for [`Store::list_tasks`].
#[derive(Debug, Clone, Default)]
pub struct TaskFilter {
    /// Only this tuple status.
    pub status: Option<String>,
    /// Only this domain.
    pub domain: Option<String>,
    /// Only this difficulty.
    pub difficulty: Option<String>,
    /// At most this many rows (0 = all).
    pub limit: usize,
}

impl Store {
    /// One task with its status.
    pub fn task(&self, task_id: &str) -> Result<StoredTask> {
        get_task(&self.conn, task_id)?.ok_or_else(|| StoreError::UnknownTask(task_id.to_string()))
    }

    /// Tasks matching `filter`, ordered by task id.
    pub fn list_tasks(&self, filter: &TaskFilter) -> Result<Vec<StoredTask>> {
        // No limit as the largest one: SQLite's -1 is an error on PostgreSQL.
        let limit = if filter.limit == 0 {
            i64::MAX
        } else {
            filter.limit as i64
        };
        let sql = format!(
            "SELECT {TASK_COLUMNS} FROM {TASK_FROM} \
             WHERE (CAST(?1 AS TEXT) IS NULL OR u.status = ?1) \
             AND (CAST(?2 AS TEXT) IS NULL OR t.domain = ?2) \
             AND (CAST(?3 AS TEXT) IS NULL OR t.difficulty = ?3) ORDER BY t.task_id LIMIT ?4"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(
            params![filter.status, filter.domain, filter.difficulty, limit],
            task_from_row,
        )?;
        let mut out = Vec::new();
        for row in rows {
            out.push(finish(row?)?);
        }
        Ok(out)
    }

    /// Number of tasks per tuple status.
    pub fn status_counts(&self) -> Result<Vec<(String, i64)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT status, COUNT(*) FROM tuples GROUP BY status ORDER BY status")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_>>()
    }
}
