//! Which run each stored round of a task came from. A loop run starts with the loop's `in_loop`
//! decision; its rounds are the `loop` rounds started after it and before the next one. A round
//! of another source (`import`, `verify`, `synthetic`) is a run of its own.

use super::db::params;

use super::{Result, Store};

impl Store {
    /// The run number (1-based, in round order) of each of the task's rounds, parallel to
    /// [`Store::rounds`]: a change of number is a run boundary.
    pub fn round_runs(&self, task_id: &str) -> Result<Vec<u32>> {
        let mut starts_stmt = self.conn.prepare_cached(
            "SELECT created_at FROM decisions WHERE task_id = ?1 AND after = 'in_loop' \
             AND compensates IS NULL ORDER BY id",
        )?;
        let starts: Vec<String> = starts_stmt
            .query_map(params![task_id], |r| r.get(0))?
            .collect::<Result<_>>()?;
        let mut rounds_stmt = self.conn.prepare_cached(
            "SELECT source, started_at FROM rounds WHERE task_id = ?1 ORDER BY round_no",
        )?;
        let rounds: Vec<(String, String)> = rounds_stmt
            .query_map(params![task_id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_>>()?;
        Ok(number_runs(&starts, &rounds))
    }
}

/// The run numbers of `rounds` (source, started_at) given the loop runs' start times.
fn number_runs(starts: &[String], rounds: &[(String, String)]) -> Vec<u32> {
    let mut out = Vec::with_capacity(rounds.len());
    let mut run = 0;
    let mut last: Option<Option<usize>> = None;
    for (source, started) in rounds {
        // A loop round belongs to the latest loop start not after it; others stand alone.
        let key = (source == "loop")
            .then(|| starts.iter().rposition(|s| s <= started))
            .flatten();
        let same = source == "loop" && last == Some(key);
        if !same {
            run += 1;
        }
        last = (source == "loop").then_some(key);
        out.push(run);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::number_runs;

    #[test]
    fn loop_rounds_group_by_their_run_and_other_sources_stand_alone() {
        let starts = ["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"].map(String::from);
        let r = |source: &str, at: &str| (source.to_string(), format!("2026-01-0{at}.000Z"));
        let rounds = [
            r("import", "1T00:00:00"),
            r("loop", "1T00:01:00"),
            r("loop", "1T00:02:00"),
            r("verify", "1T09:00:00"),
            r("loop", "2T00:01:00"),
            r("loop", "2T00:02:00"),
        ];
        assert_eq!(number_runs(&starts, &rounds), [1, 2, 2, 3, 4, 4]);
        // Loop rounds before any recorded start (an old store) are one run.
        assert_eq!(number_runs(&[], &rounds[1..3]), [1, 1]);
    }
}
