//! Set-based decision writes (issue #33): a bulk decision of thousands of tuples stages its rows
//! in a temporary table (`tw_bulk_set`, filled with multi-row `INSERT`s) and then writes every
//! decision record with one `INSERT … SELECT`, every cached status with one `UPDATE`, and every
//! event with one `INSERT … SELECT` from a second staging table (`tw_bulk_events`) — a few dozen
//! statements instead of six per tuple. Each tuple still gets its own append-only decision and
//! its own numbered event, written in the same transaction, in the order staged.

use std::collections::HashMap;

use super::db::{params, Backend, ToValue};
use super::{Decision, DecisionSource, Result, StoreError, Tx};

/// Rows per multi-row `INSERT` into a staging table: chunks of this size, the rest in powers of
/// two, so that at most nine statement texts per table are ever prepared (and cached).
const STAGE_ROWS: usize = 256;

/// The staging tables (temporary: per connection, never in the store file). `{C}` is the text
/// columns' collation: PostgreSQL's store columns are `COLLATE "C"`, and comparing text of two
/// collations there is an error; SQLite's text compares bytewise already.
const CREATE: &str = "CREATE TEMP TABLE IF NOT EXISTS tw_bulk_set (pos BIGINT PRIMARY KEY, \
     task_id TEXT{C} NOT NULL, before TEXT{C}, after TEXT{C}, reason TEXT, compensates BIGINT); \
     CREATE INDEX IF NOT EXISTS tw_bulk_set_task ON tw_bulk_set(task_id); \
     CREATE TEMP TABLE IF NOT EXISTS tw_bulk_events (pos BIGINT PRIMARY KEY, kind TEXT{C} NOT NULL, \
     task_id TEXT{C}, payload TEXT{C} NOT NULL);";

/// One staged decision: the tuple, its status before and after, why, and the decision it
/// compensates (an undo).
#[derive(Debug, Clone)]
pub struct StagedDecision<'a> {
    /// The task.
    pub task_id: &'a str,
    /// Status before (what the previous staged row of the same task leaves, for a task staged
    /// twice).
    pub before: String,
    /// Status after.
    pub after: String,
    /// Why.
    pub reason: String,
    /// The decision this one undoes, if any.
    pub compensates: Option<i64>,
}

/// One event to append: kind, task, payload (compact JSON).
pub type StagedEvent<'a> = (&'static str, &'a str, String);

/// Splits `n` rows into chunk sizes: full [`STAGE_ROWS`] chunks, then powers of two.
fn chunk_sizes(mut n: usize) -> Vec<usize> {
    let mut out = vec![STAGE_ROWS; n / STAGE_ROWS];
    n %= STAGE_ROWS;
    let mut p = STAGE_ROWS / 2;
    while n > 0 {
        if n >= p {
            out.push(p);
            n -= p;
        }
        p /= 2;
    }
    out
}

fn values_sql(table: &str, cols: &str, per_row: usize, rows: usize) -> String {
    let one = format!("({})", vec!["?"; per_row].join(","));
    format!(
        "INSERT INTO {table} ({cols}) VALUES {}",
        vec![one.as_str(); rows].join(",")
    )
}

impl Tx<'_> {
    /// Creates the staging tables if this connection has none yet.
    fn stage_create(&self) -> Result<()> {
        let collate = match self.tx.backend() {
            Backend::Sqlite => "",
            Backend::Postgres => " COLLATE \"C\"",
        };
        self.tx.execute_batch(&CREATE.replace("{C}", collate))
    }

    /// Creates the staging tables if this connection has none yet and empties them.
    fn stage_reset(&self) -> Result<()> {
        self.stage_create()?;
        self.tx.execute("DELETE FROM tw_bulk_set", params![])?;
        self.tx.execute("DELETE FROM tw_bulk_events", params![])?;
        Ok(())
    }

    /// Inserts `rows` (each a list of values) into a staging table, [`STAGE_ROWS`] at a time.
    fn stage_rows(&self, table: &str, cols: &str, rows: &[Vec<&dyn ToValue>]) -> Result<()> {
        let per_row = cols.split(',').count();
        let mut at = 0;
        for n in chunk_sizes(rows.len()) {
            let vals: Vec<&dyn ToValue> = rows[at..at + n].iter().flatten().copied().collect();
            self.tx
                .prepare_cached(&values_sql(table, cols, per_row, n))?
                .execute(vals.as_slice())?;
            at += n;
        }
        Ok(())
    }

    /// Stages the tuples `ids` (in order) and reads, for each that exists, its status and
    /// instruction: `(position in ids, status, instruction)`, in one statement.
    pub fn stage_tasks(&self, ids: &[&str]) -> Result<Vec<(usize, String, String)>> {
        self.stage_reset()?;
        let pos: Vec<i64> = (0..ids.len() as i64).collect();
        let rows: Vec<Vec<&dyn ToValue>> = ids
            .iter()
            .zip(&pos)
            .map(|(id, p)| vec![p as &dyn ToValue, id as &dyn ToValue])
            .collect();
        self.stage_rows("tw_bulk_set", "pos,task_id", &rows)?;
        let mut out = Vec::with_capacity(ids.len());
        self.tx.for_each(
            "SELECT b.pos, u.status, t.instruction FROM tw_bulk_set b \
             JOIN tuples u ON u.task_id = b.task_id JOIN tasks t ON t.task_id = b.task_id \
             ORDER BY b.pos",
            params![],
            |r| {
                out.push((r.get::<i64>(0)? as usize, r.get(1)?, r.get(2)?));
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// For each staged task, the payload of its latest event of `kind` whose decision
    /// (`payload.decision_id`) has not been undone, by task id (one statement).
    pub fn staged_latest_payloads(&self, kind: &str) -> Result<HashMap<String, String>> {
        let mut out = HashMap::new();
        self.tx.for_each(
            "SELECT e.task_id, e.payload FROM events e \
             WHERE e.kind = ?1 AND e.task_id IN (SELECT task_id FROM tw_bulk_set) \
             AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = \
             CAST(json_extract(e.payload, '$.decision_id') AS INTEGER)) ORDER BY e.seq",
            params![kind],
            |r| {
                out.insert(r.get(0)?, r.get(1)?);
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Every tuple's cached status among the tasks with a decision in `group`, by task id.
    pub fn statuses_of_group(&self, group: &str) -> Result<HashMap<String, String>> {
        let mut out = HashMap::new();
        self.tx.for_each(
            "SELECT u.task_id, u.status FROM tuples u WHERE u.task_id IN \
             (SELECT g.task_id FROM decisions g WHERE g.group_id = ?1)",
            params![group],
            |r| {
                out.insert(r.get(0)?, r.get(1)?);
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Appends one decision per staged row (in order, all at `time`, by `who`, in `group`) with
    /// one `INSERT … SELECT`, and moves every task's cached status to its last row's `after` with
    /// one `UPDATE`. The `decision` events are the caller's ([`decision_json`], then
    /// [`Tx::append_events`]), so they can interleave with its own. Returns the decisions.
    pub fn record_decisions(
        &self,
        rows: &[StagedDecision<'_>],
        who: (&str, DecisionSource),
        group: Option<&str>,
        time: &str,
    ) -> Result<Vec<Decision>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        self.stage_reset()?;
        let pos: Vec<i64> = (0..rows.len() as i64).collect();
        let staged: Vec<Vec<&dyn ToValue>> = rows
            .iter()
            .zip(&pos)
            .map(|(d, p)| {
                let v: Vec<&dyn ToValue> = vec![
                    p,
                    &d.task_id,
                    &d.before,
                    &d.after,
                    &d.reason,
                    &d.compensates,
                ];
                v
            })
            .collect();
        let cols = "pos,task_id,before,after,reason,compensates";
        self.stage_rows("tw_bulk_set", cols, &staged)?;
        let (actor, source) = who;
        let mut ids: Vec<(i64, String)> = self
            .tx
            .prepare_cached(
                "INSERT INTO decisions (task_id, actor, source, before, after, reason, created_at, \
                 compensates, group_id) SELECT task_id, ?1, ?2, before, after, reason, ?3, \
                 compensates, ?4 FROM tw_bulk_set ORDER BY pos RETURNING id, task_id",
            )?
            .query_map(params![actor, source.as_str(), time, group], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<Result<_>>()?;
        // Ids are given in insertion order (the staged order): the k-th smallest is row k's.
        ids.sort_unstable_by_key(|(id, _)| *id);
        if ids.len() != rows.len() || ids.iter().zip(rows).any(|((_, t), d)| t != d.task_id) {
            return Err(StoreError::Invalid(format!(
                "set-based decision write: {} rows staged, {} decisions returned out of order",
                rows.len(),
                ids.len()
            )));
        }
        self.tx
            .prepare_cached(
                "UPDATE tuples SET status = (SELECT b.after FROM tw_bulk_set b \
                 WHERE b.task_id = tuples.task_id ORDER BY b.pos DESC LIMIT 1), updated_at = ?1 \
                 WHERE task_id IN (SELECT task_id FROM tw_bulk_set)",
            )?
            .execute(params![time])?;
        Ok(ids
            .into_iter()
            .zip(rows)
            .map(|((id, task_id), d)| Decision {
                id,
                task_id,
                actor: actor.to_string(),
                source: source.as_str().to_string(),
                before: d.before.clone(),
                after: d.after.clone(),
                reason: d.reason.clone(),
                created_at: time.to_string(),
                compensates: d.compensates,
                group_id: group.map(str::to_string),
            })
            .collect())
    }

    /// Appends `events` in the order given, numbered in that order, all at `time`: staged, then
    /// one `INSERT … SELECT` (under PostgreSQL's store-wide write lock, as every event).
    pub fn append_events(&self, events: &[StagedEvent<'_>], time: &str) -> Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        self.tx.write_lock()?;
        self.stage_create()?;
        self.tx.execute("DELETE FROM tw_bulk_events", params![])?;
        let pos: Vec<i64> = (0..events.len() as i64).collect();
        let rows: Vec<Vec<&dyn ToValue>> = events
            .iter()
            .zip(&pos)
            .map(|((kind, task, payload), p)| {
                let v: Vec<&dyn ToValue> = vec![p, kind, task, payload];
                v
            })
            .collect();
        self.stage_rows("tw_bulk_events", "pos,kind,task_id,payload", &rows)?;
        self.tx
            .prepare_cached(
                "INSERT INTO events (time, kind, task_id, payload) \
                 SELECT ?1, kind, task_id, payload FROM tw_bulk_events ORDER BY pos",
            )?
            .execute(params![time])?;
        Ok(())
    }
}

/// The `decision` event's payload of `d`, as every decision writes it.
pub fn decision_json(d: &Decision) -> serde_json::Value {
    serde_json::json!({"id": d.id, "actor": d.actor, "source": d.source,
        "before": d.before, "after": d.after, "compensates": d.compensates, "group": d.group_id})
}

#[cfg(test)]
mod tests {
    use super::chunk_sizes;

    #[test]
    fn chunks_cover_every_row_in_few_distinct_sizes() {
        for n in [0, 1, 5, 255, 256, 257, 10_000] {
            let c = chunk_sizes(n);
            assert_eq!(c.iter().sum::<usize>(), n, "{n}");
            let mut distinct = c.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert!(distinct.len() <= 9, "{n}: {c:?}");
        }
    }
}
