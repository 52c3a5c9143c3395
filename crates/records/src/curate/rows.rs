//! The tuple list as every face sees it: one [`TaskRow`] per tuple with what the list sorts,
//! filters and searches on (the workbench's Tuples screen, `override --where`).

use tuplewright_base::store::db::params;
use tuplewright_base::store::{Store, StoreError};

/// One line of the tuple list (everything the list sorts and filters on).
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRow {
    /// Task id.
    pub id: String,
    /// The instruction.
    pub instruction: String,
    /// First app label (empty when none).
    pub app: String,
    /// Domain label.
    pub domain: String,
    /// easy | medium | hard (empty when unknown).
    pub difficulty: String,
    /// Tuple status.
    pub status: String,
    /// Rounds recorded.
    pub rounds: i64,
    /// Lowest r(gold) of the latest round.
    pub r_gold: Option<f64>,
    /// Highest r(init) of the latest round.
    pub r_init: Option<f64>,
    /// Worst critic severity among the tuple's votes (`P0` worst … `P3`; empty when unvoted).
    pub severity: String,
    /// The tuple's tags in force (its newest note's), space-separated; empty without notes.
    pub tags: String,
    /// Two curators' decisions in force on it differ (search `contested:yes`).
    pub contested: bool,
}

/// Every tuple with its latest-round rewards, ordered by id.
pub fn load_rows(store: &Store) -> Result<Vec<TaskRow>, StoreError> {
    let sql = "WITH last AS (SELECT task_id, MAX(round_no) AS n, COUNT(*) AS c FROM rounds GROUP BY task_id), \
         lr AS (SELECT r.task_id, r.id FROM rounds r JOIN last l ON l.task_id = r.task_id AND l.n = r.round_no), \
         rw AS (SELECT lr.task_id, \
           MIN(CASE WHEN w.endpoint = 'golden' THEN w.reward END) AS g, \
           MAX(CASE WHEN w.endpoint = 'initial' THEN w.reward END) AS i \
           FROM lr JOIN reward_runs w ON w.round_id = lr.id GROUP BY lr.task_id), \
         sv AS (SELECT task_id, MIN(severity) AS s FROM votes WHERE severity IN ('P0', 'P1', 'P2', 'P3') GROUP BY task_id), \
         nt AS (SELECT n.task_id, n.tags FROM notes n WHERE n.id = (SELECT MAX(m.id) FROM notes m WHERE m.task_id = n.task_id)) \
         SELECT t.task_id, t.instruction, t.apps, COALESCE(t.domain, ''), COALESCE(t.difficulty, ''), \
           u.status, COALESCE(last.c, 0), rw.g, rw.i, COALESCE(sv.s, ''), COALESCE(nt.tags, '[]') \
         FROM tasks t JOIN tuples u ON u.task_id = t.task_id \
         LEFT JOIN last ON last.task_id = t.task_id LEFT JOIN rw ON rw.task_id = t.task_id \
         LEFT JOIN sv ON sv.task_id = t.task_id LEFT JOIN nt ON nt.task_id = t.task_id \
         ORDER BY t.task_id";
    let mut stmt = store.conn().prepare(sql)?;
    let rows = stmt.query_map(params![], |r| {
        let apps: String = r.get(2)?;
        Ok(TaskRow {
            id: r.get(0)?,
            instruction: r.get(1)?,
            app: first_app(&apps),
            domain: r.get(3)?,
            difficulty: r.get(4)?,
            status: r.get(5)?,
            rounds: r.get(6)?,
            r_gold: r.get(7)?,
            r_init: r.get(8)?,
            severity: r.get(9)?,
            tags: tag_words(&r.get::<String>(10)?),
            contested: false,
        })
    })?;
    let mut rows: Vec<TaskRow> = rows.collect::<Result<_, StoreError>>()?;
    let split = crate::curate::agreement::agreement(store)?.disagreements;
    if !split.is_empty() {
        let ids: std::collections::HashSet<&str> =
            split.iter().map(|d| d.task_id.as_str()).collect();
        for r in &mut rows {
            r.contested = ids.contains(r.id.as_str());
        }
    }
    Ok(rows)
}

/// `rows` (as [`load_rows`] gave them) with what a decision changes read again: every tuple's
/// status and whether two curators' decisions in force on it differ. A bulk decision's answer
/// patches the list with this instead of reloading all of it (issue #33: two reads, no join over
/// rounds, rewards, votes and notes). `None` when the store's tuples are not the rows' (one was
/// added since: the caller reloads).
pub fn patch_decided(store: &Store, rows: &[TaskRow]) -> Result<Option<Vec<TaskRow>>, StoreError> {
    let statuses = store.statuses()?;
    if statuses.len() != rows.len() || rows.iter().any(|r| !statuses.contains_key(&r.id)) {
        return Ok(None);
    }
    let split = crate::curate::agreement::agreement(store)?.disagreements;
    let contested: std::collections::HashSet<&str> =
        split.iter().map(|d| d.task_id.as_str()).collect();
    Ok(Some(
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                if let Some(s) = statuses.get(&r.id) {
                    s.clone_into(&mut r.status);
                }
                r.contested = contested.contains(r.id.as_str());
                r
            })
            .collect(),
    ))
}

/// The first `limit` tuples by id, with their round counts but without rewards (a fast first page).
pub fn load_rows_page(store: &Store, limit: usize) -> Result<Vec<TaskRow>, StoreError> {
    let sql = "SELECT t.task_id, t.instruction, t.apps, COALESCE(t.domain, ''), COALESCE(t.difficulty, ''), \
         u.status, (SELECT COUNT(*) FROM rounds r WHERE r.task_id = t.task_id) \
         FROM tasks t JOIN tuples u ON u.task_id = t.task_id ORDER BY t.task_id LIMIT ?1";
    let mut stmt = store.conn().prepare(sql)?;
    let rows = stmt.query_map(params![limit as i64], |r| {
        let apps: String = r.get(2)?;
        Ok(TaskRow {
            id: r.get(0)?,
            instruction: r.get(1)?,
            app: first_app(&apps),
            domain: r.get(3)?,
            difficulty: r.get(4)?,
            status: r.get(5)?,
            rounds: r.get(6)?,
            r_gold: None,
            r_init: None,
            severity: String::new(),
            tags: String::new(),
            contested: false,
        })
    })?;
    rows.collect::<Result<_, tuplewright_base::store::StoreError>>()
}

/// A note's tags (a JSON array) as space-separated words.
fn tag_words(tags_json: &str) -> String {
    serde_json::from_str::<Vec<String>>(tags_json)
        .map(|v| v.join(" "))
        .unwrap_or_default()
}

fn first_app(apps_json: &str) -> String {
    serde_json::from_str::<Vec<String>>(apps_json)
        .ok()
        .and_then(|v| v.into_iter().next())
        .unwrap_or_default()
}
