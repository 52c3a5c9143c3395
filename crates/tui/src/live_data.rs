//! What the Live screen reads from the store itself rather than from the event window: the task,
//! status, round and lease counts of its header, and every event of the latest job (however long
//! ago it started), so the job header is right on a store with a long history. The event tail
//! only feeds the log pane and the per-task timeline.

use tuplewright_base::lease::sqlite as leases;
use tuplewright_base::store::{now, Event, Store, StoreError};

/// Store-wide counts for the Live header.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveCounts {
    /// Tasks in the store.
    pub tasks: usize,
    /// Tasks per status.
    pub by_status: Vec<(String, usize)>,
    /// Rounds stored.
    pub rounds: usize,
    /// Tasks leased now by a live owner (any process).
    pub leased: usize,
}

impl LiveCounts {
    /// Tasks with this status.
    pub fn status(&self, s: &str) -> usize {
        self.by_status
            .iter()
            .find(|(k, _)| k == s)
            .map_or(0, |(_, n)| *n)
    }

    /// Tasks out of the loop (neither pending nor in it).
    pub fn out_of_loop(&self) -> usize {
        self.tasks
            .saturating_sub(self.status("pending"))
            .saturating_sub(self.status("in_loop"))
    }
}

/// The Live screen's store read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveSummary {
    /// Header counts.
    pub counts: LiveCounts,
    /// The latest job's `job.*` events (when asked for) and the last event seq the read covers.
    pub job: Option<(Vec<Event>, i64)>,
}

/// Reads the counts and, with `job`, the events of the latest job.
pub fn load_live(store: &Store, job: bool) -> Result<LiveSummary, StoreError> {
    let conn = store.conn();
    let by_status: Vec<(String, usize)> = store
        .status_counts()?
        .into_iter()
        .map(|(s, n)| (s, n.max(0) as usize))
        .collect();
    let rounds: i64 = conn.query_row("SELECT COUNT(*) FROM rounds", [], |r| r.get(0))?;
    let time = now();
    let leased = leases::list(conn)?
        .iter()
        .filter(|l| l.expires_at > time)
        .count();
    let counts = LiveCounts {
        tasks: by_status.iter().map(|(_, n)| n).sum(),
        by_status,
        rounds: rounds.max(0) as usize,
        leased,
    };
    let job = if job { Some(latest_job(store)?) } else { None };
    Ok(LiveSummary { counts, job })
}

/// Every `job.*` event of the latest job, and the last seq of the log at the time of the read.
fn latest_job(store: &Store) -> Result<(Vec<Event>, i64), StoreError> {
    let through = store.last_event_seq()?;
    let start: Option<i64> = store.conn().query_row(
        "SELECT MAX(seq) FROM events WHERE task_id IS NULL AND kind = 'job.started'",
        [],
        |r| r.get(0),
    )?;
    let Some(start) = start else {
        return Ok((Vec::new(), through));
    };
    let mut out = Vec::new();
    let mut after = start - 1;
    loop {
        let batch = store.events_after(after, 4096)?;
        let Some(last) = batch.last().map(|e| e.seq) else {
            break;
        };
        out.extend(
            batch
                .into_iter()
                .filter(|e| e.seq <= through && e.kind.starts_with("job.")),
        );
        if last >= through {
            break;
        }
        after = last;
    }
    Ok((out, through))
}
