//! Adversarial rounds: scripts (by sha256), run results, reward runs, scan findings, REVIEW.md, usage.

use super::db::{params, Conn};

use super::blobs::get_blob;
use super::{
    now, Result, RewardRun, RoundRecord, ScriptRun, Scripts, Store, StoreError, StoredRound, Tx,
    Usage,
};

impl Tx<'_> {
    /// Records one whole round — scripts, runs, reward runs, usage — and returns its row id.
    /// Fails (and, with [`Store::write`], rolls back everything) if the task is unknown or the
    /// round number is taken.
    pub fn record_round(&self, round: &RoundRecord) -> Result<i64> {
        if self.task(&round.task_id)?.is_none() {
            return Err(StoreError::UnknownTask(round.task_id.clone()));
        }
        let round_no = match round.round_no {
            Some(n) => n,
            None => self.tx.query_row(
                "SELECT COALESCE(MAX(round_no), 0) + 1 FROM rounds WHERE task_id = ?1",
                params![round.task_id],
                |r| r.get::<i64>(0),
            )?,
        };
        let sha = |text: &Option<String>| text.as_deref().map(|t| self.put_blob(t)).transpose();
        let (setup, golden, reward) = (
            sha(&round.scripts.setup)?,
            sha(&round.scripts.golden)?,
            sha(&round.scripts.reward)?,
        );
        let round_id: i64 = self.tx.prepare_cached("INSERT INTO rounds (task_id, round_no, verdict, source, setup_sha, golden_sha, reward_sha, \
             review_md, scan_findings, generator_model, discriminator_model, started_at, finished_at) \
             VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13) RETURNING id")?.query_row(params![
                round.task_id,
                round_no,
                round.verdict,
                round.source,
                setup,
                golden,
                reward,
                round.review_md,
                serde_json::to_string(&round.scan_findings)?,
                round.generator_model,
                round.discriminator_model,
                round.started_at,
                round.finished_at
            ], |r| r.get(0),
        )?;
        for run in &round.script_runs {
            self.tx.prepare_cached("INSERT INTO script_runs (round_id, script, exit_code, stdout, stderr, duration_ms, failure) \
                 VALUES (?1,?2,?3,?4,?5,?6,?7)")?.execute(params![round_id, run.script, run.exit_code, run.stdout, run.stderr, run.duration_ms, run.failure],
            )?;
        }
        for run in &round.reward_runs {
            self.tx.prepare_cached("INSERT INTO reward_runs (round_id, endpoint, reward, components, exit_code, stdout, \
                 stderr, duration_ms, failure) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)")?.execute(params![
                    round_id,
                    run.endpoint,
                    run.reward,
                    serde_json::to_string(&run.components)?,
                    run.exit_code,
                    run.stdout,
                    run.stderr,
                    run.duration_ms,
                    run.failure
                ],
            )?;
        }
        for u in &round.usage {
            self.record_usage(Some(&round.task_id), Some(round_id), u)?;
        }
        let payload = serde_json::json!({"id": round_id, "round": round_no, "verdict": round.verdict,
            "source": round.source});
        self.append_event("round.recorded", Some(&round.task_id), &payload)?;
        Ok(round_id)
    }

    /// Records token usage not tied to a round (task generation, critics, rollouts).
    pub fn record_usage(
        &self,
        task_id: Option<&str>,
        round_id: Option<i64>,
        u: &Usage,
    ) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO usage (task_id, round_id, stage, model, input_tokens, output_tokens, \
                 created_at, cost_usd) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)",
            )?
            .execute(params![
                task_id,
                round_id,
                u.stage,
                u.model,
                u.input_tokens,
                u.output_tokens,
                now(),
                u.cost_usd
            ])?;
        Ok(())
    }

    /// The rounds of a task as seen inside this transaction.
    pub fn rounds(&self, task_id: &str) -> Result<Vec<StoredRound>> {
        load_rounds(self.tx, task_id)
    }
}

impl Store {
    /// The highest stored round number of a task (0 = none): a new run's rounds continue from it,
    /// so events, REVIEW.md headings, decisions and the store share one numbering.
    pub fn last_round_no(&self, task_id: &str) -> Result<u32> {
        let n: i64 = self.conn.query_row(
            "SELECT COALESCE(MAX(round_no), 0) FROM rounds WHERE task_id = ?1",
            params![task_id],
            |r| r.get(0),
        )?;
        u32::try_from(n).map_err(|_| StoreError::Invalid(format!("round number {n} of {task_id}")))
    }

    /// The rounds of a task, oldest first.
    pub fn rounds(&self, task_id: &str) -> Result<Vec<StoredRound>> {
        load_rounds(&self.conn, task_id)
    }
}

type RoundRow = (i64, RoundRecord, [Option<String>; 3], String);

fn load_rounds(conn: &Conn, task_id: &str) -> Result<Vec<StoredRound>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, round_no, verdict, source, setup_sha, golden_sha, reward_sha, review_md, \
         scan_findings, generator_model, discriminator_model, started_at, finished_at \
         FROM rounds WHERE task_id = ?1 ORDER BY round_no",
    )?;
    let rows: Vec<RoundRow> = stmt
        .query_map(params![task_id], |r| {
            let record = RoundRecord {
                task_id: task_id.to_string(),
                round_no: Some(r.get(1)?),
                verdict: r.get(2)?,
                source: r.get(3)?,
                scripts: Scripts::default(),
                review_md: r.get(7)?,
                scan_findings: serde_json::Value::Null,
                generator_model: r.get(9)?,
                discriminator_model: r.get(10)?,
                started_at: r.get(11)?,
                finished_at: r.get(12)?,
                script_runs: Vec::new(),
                reward_runs: Vec::new(),
                usage: Vec::new(),
            };
            Ok((
                r.get(0)?,
                record,
                [r.get(4)?, r.get(5)?, r.get(6)?],
                r.get(8)?,
            ))
        })?
        .collect::<Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, mut round, shas, findings) in rows {
        round.scan_findings = serde_json::from_str(&findings)?;
        let text = |sha: &Option<String>| -> Result<Option<String>> {
            match sha {
                Some(s) => get_blob(conn, s)?
                    .map(Some)
                    .ok_or_else(|| StoreError::Invalid(format!("missing blob {s}"))),
                None => Ok(None),
            }
        };
        round.scripts = Scripts {
            setup: text(&shas[0])?,
            golden: text(&shas[1])?,
            reward: text(&shas[2])?,
        };
        round.script_runs = load_script_runs(conn, id)?;
        round.reward_runs = load_reward_runs(conn, id)?;
        round.usage = load_usage(conn, id)?;
        out.push(StoredRound {
            id,
            round,
            script_shas: shas,
        });
    }
    Ok(out)
}

fn load_script_runs(conn: &Conn, round_id: i64) -> Result<Vec<ScriptRun>> {
    let mut stmt = conn.prepare_cached(
        "SELECT script, exit_code, stdout, stderr, duration_ms, failure FROM script_runs \
         WHERE round_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map(params![round_id], |r| {
        Ok(ScriptRun {
            script: r.get(0)?,
            exit_code: r.get(1)?,
            stdout: r.get(2)?,
            stderr: r.get(3)?,
            duration_ms: r.get(4)?,
            failure: r.get(5)?,
        })
    })?;
    rows.collect::<Result<_>>()
}

fn load_reward_runs(conn: &Conn, round_id: i64) -> Result<Vec<RewardRun>> {
    let mut stmt = conn.prepare_cached(
        "SELECT endpoint, reward, components, exit_code, stdout, stderr, duration_ms, failure \
         FROM reward_runs WHERE round_id = ?1 ORDER BY id",
    )?;
    let rows: Vec<(RewardRun, String)> = stmt
        .query_map(params![round_id], |r| {
            let run = RewardRun {
                endpoint: r.get(0)?,
                reward: r.get(1)?,
                components: serde_json::Value::Null,
                exit_code: r.get(3)?,
                stdout: r.get(4)?,
                stderr: r.get(5)?,
                duration_ms: r.get(6)?,
                failure: r.get(7)?,
            };
            Ok((run, r.get(2)?))
        })?
        .collect::<Result<_>>()?;
    rows.into_iter()
        .map(|(mut run, comps)| {
            run.components = serde_json::from_str(&comps)?;
            Ok(run)
        })
        .collect()
}

fn load_usage(conn: &Conn, round_id: i64) -> Result<Vec<Usage>> {
    let mut stmt = conn.prepare_cached(
        "SELECT stage, model, input_tokens, output_tokens, cost_usd FROM usage WHERE round_id = ?1 \
         ORDER BY id",
    )?;
    let rows = stmt.query_map(params![round_id], |r| {
        Ok(Usage {
            stage: r.get(0)?,
            model: r.get(1)?,
            input_tokens: r.get(2)?,
            output_tokens: r.get(3)?,
            cost_usd: r.get(4)?,
        })
    })?;
    rows.collect::<Result<_>>()
}

/// The round a bundle is exported from: the latest passing round with all three scripts, else the
/// latest round with all three scripts.
pub fn final_round(rounds: &[StoredRound]) -> Option<&StoredRound> {
    let complete = |r: &&StoredRound| {
        let s = &r.round.scripts;
        s.setup.is_some() && s.golden.is_some() && s.reward.is_some()
    };
    rounds
        .iter()
        .rev()
        .filter(complete)
        .find(|r| r.round.verdict == "pass")
        .or_else(|| rounds.iter().rev().find(complete))
}
