//! Append-only decisions (status changes), critic votes and teacher rollouts.
//!
//! A tuple's effective status is the `after` of its latest decision (`pending` if none); the
//! `tuples.status` column caches it and is updated in the same transaction. An undo is a
//! compensating decision that moves the status back and names the decision it undoes.

use super::db::{params, Conn, OptionalExt, Row};

use super::{
    now, Decision, DecisionSource, Result, Rollout, Store, StoreError, TupleStatus, Tx, Vote,
};

const DECISION_COLUMNS: &str =
    "id, task_id, actor, source, before, after, reason, created_at, compensates, group_id";

fn decision_from_row(r: &Row<'_>) -> Result<Decision> {
    Ok(Decision {
        id: r.get(0)?,
        task_id: r.get(1)?,
        actor: r.get(2)?,
        source: r.get(3)?,
        before: r.get(4)?,
        after: r.get(5)?,
        reason: r.get(6)?,
        created_at: r.get(7)?,
        compensates: r.get(8)?,
        group_id: r.get(9)?,
    })
}

impl Tx<'_> {
    /// Moves a tuple to `after`, appending a decision (`before` is read from the store). Returns it.
    /// `at` = the decision time (RFC 3339), `None` = now.
    pub fn record_decision(
        &self,
        task_id: &str,
        after: TupleStatus,
        actor: &str,
        source: DecisionSource,
        reason: &str,
        at: Option<&str>,
    ) -> Result<Decision> {
        self.append_decision(
            task_id,
            after.as_str(),
            actor,
            source,
            reason,
            at,
            None,
            None,
        )
    }

    /// A task's status and instruction (what a decision needs, without parsing the whole task).
    pub fn status_and_instruction(&self, task_id: &str) -> Result<Option<(String, String)>> {
        self.tx
            .prepare_cached(
                "SELECT u.status, t.instruction FROM tasks t JOIN tuples u ON u.task_id = t.task_id \
                 WHERE t.task_id = ?1",
            )?
            .query_row(params![task_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()
    }

    /// [`Tx::record_decision`] as part of the bulk decision `group` (issue #33).
    pub fn record_grouped_decision(
        &self,
        task_id: &str,
        after: TupleStatus,
        who: (&str, DecisionSource),
        reason: &str,
        group: &str,
    ) -> Result<Decision> {
        self.record_decision_from(task_id, None, after, who, reason, Some(group))
    }

    /// [`Tx::record_decision`] (now, in `group` if any) for a caller that has just read the
    /// tuple's status in this transaction: `before` = that status, so it is not read again
    /// (one statement fewer per tuple of a bulk decision); `None` reads it.
    pub fn record_decision_from(
        &self,
        task_id: &str,
        before: Option<&str>,
        after: TupleStatus,
        who: (&str, DecisionSource),
        reason: &str,
        group: Option<&str>,
    ) -> Result<Decision> {
        let (actor, source) = who;
        let status = match before {
            Some(b) => b.to_string(),
            None => self.current_status(task_id)?,
        };
        self.insert_decision(
            task_id,
            status,
            after.as_str(),
            (actor, source),
            reason,
            None,
            (None, group),
        )
    }

    /// For every task with a decision in the bulk decision `group`, its decisions in force
    /// (neither an undo nor undone), oldest first: one set-based read where a group undo asked
    /// once per decision (issue #33). The last of each list is the task's latest in force.
    pub fn in_force_by_task_of_group(
        &self,
        group: &str,
    ) -> Result<std::collections::HashMap<String, Vec<i64>>> {
        let mut out: std::collections::HashMap<String, Vec<i64>> = Default::default();
        self.tx.for_each(
            "SELECT d.task_id, d.id FROM decisions d \
             WHERE d.task_id IN (SELECT g.task_id FROM decisions g WHERE g.group_id = ?1) \
             AND d.compensates IS NULL \
             AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = d.id) ORDER BY d.id",
            params![group],
            |r| {
                out.entry(r.get(0)?).or_default().push(r.get(1)?);
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Appends the decision compensating `target` (back to its `before`) in `group`, without
    /// checking that it is still in force: the caller did ([`Tx::in_force_by_task_of_group`]).
    pub fn compensate_grouped(
        &self,
        target: &Decision,
        who: (&str, DecisionSource),
        reason: &str,
        group: &str,
    ) -> Result<Decision> {
        let reason = format!("undo decision #{}: {reason}", target.id);
        let before = self.current_status(&target.task_id)?;
        self.insert_decision(
            &target.task_id,
            before,
            &target.before,
            who,
            &reason,
            None,
            (Some(target.id), Some(group)),
        )
    }

    /// Undoes decision `id` of the bulk decision `group` if it is still its task's latest decision
    /// in force (neither an undo nor undone, and no later decision in force on the task). The compensating
    /// decision carries the same group id. `None` when the decision is no longer the latest.
    pub fn undo_grouped_decision(
        &self,
        id: i64,
        who: (&str, DecisionSource),
        reason: &str,
        group: &str,
    ) -> Result<Option<Decision>> {
        let target: Decision = self
            .tx
            .query_row(
                &format!("SELECT {DECISION_COLUMNS} FROM decisions WHERE id = ?1"),
                params![id],
                decision_from_row,
            )
            .optional()?
            .ok_or(StoreError::NoRow)?;
        let latest: Option<i64> = self
            .tx
            .query_row(
                "SELECT d.id FROM decisions d WHERE task_id = ?1 AND compensates IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = d.id) \
                 ORDER BY id DESC LIMIT 1",
                params![target.task_id],
                |r| r.get(0),
            )
            .optional()?;
        if latest != Some(id) {
            return Ok(None);
        }
        self.compensate_grouped(&target, who, reason, group)
            .map(Some)
    }

    /// Undoes the latest decision of a task that is not itself undone, by appending a compensating
    /// decision back to its `before`. Returns `None` when there is nothing to undo.
    pub fn undo_last_decision(
        &self,
        task_id: &str,
        actor: &str,
        source: DecisionSource,
        reason: &str,
    ) -> Result<Option<Decision>> {
        // The latest decision that is neither an undo nor already undone.
        let target: Option<Decision> = self
            .tx
            .query_row(
                &format!(
                    "SELECT {DECISION_COLUMNS} FROM decisions d WHERE task_id = ?1 AND compensates IS NULL \
                     AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = d.id) \
                     ORDER BY id DESC LIMIT 1"
                ),
                params![task_id],
                decision_from_row,
            )
            .optional()?;
        let Some(target) = target else {
            return Ok(None);
        };
        let reason = format!("undo decision #{}: {reason}", target.id);
        self.append_decision(
            task_id,
            &target.before,
            actor,
            source,
            &reason,
            None,
            Some(target.id),
            None,
        )
        .map(Some)
    }

    #[allow(clippy::too_many_arguments)]
    fn append_decision(
        &self,
        task_id: &str,
        after: &str,
        actor: &str,
        source: DecisionSource,
        reason: &str,
        at: Option<&str>,
        compensates: Option<i64>,
        group: Option<&str>,
    ) -> Result<Decision> {
        let before = self.current_status(task_id)?;
        self.insert_decision(
            task_id,
            before,
            after,
            (actor, source),
            reason,
            at,
            (compensates, group),
        )
    }

    /// The tuple's cached status (what a new decision's `before` is).
    fn current_status(&self, task_id: &str) -> Result<String> {
        self.tx
            .query_row(
                "SELECT status FROM tuples WHERE task_id = ?1",
                params![task_id],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| StoreError::UnknownTask(task_id.to_string()))
    }

    /// Appends one decision record (and its `decision` event) and moves the cached status.
    #[allow(clippy::too_many_arguments)]
    fn insert_decision(
        &self,
        task_id: &str,
        before: String,
        after: &str,
        who: (&str, DecisionSource),
        reason: &str,
        at: Option<&str>,
        links: (Option<i64>, Option<&str>),
    ) -> Result<Decision> {
        let ((actor, source), (compensates, group)) = (who, links);
        let time = at.map(str::to_string).unwrap_or_else(now);
        let id: i64 = self.tx.prepare_cached("INSERT INTO decisions (task_id, actor, source, before, after, reason, created_at, compensates, group_id) \
             VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9) RETURNING id")?.query_row(params![task_id, actor, source.as_str(), before, after, reason, time, compensates, group], |r| r.get(0),
        )?;
        self.tx
            .prepare_cached("UPDATE tuples SET status = ?2, updated_at = ?3 WHERE task_id = ?1")?
            .execute(params![task_id, after, time])?;
        let d = Decision {
            id,
            task_id: task_id.to_string(),
            actor: actor.to_string(),
            source: source.as_str().to_string(),
            before,
            after: after.to_string(),
            reason: reason.to_string(),
            created_at: time,
            compensates,
            group_id: group.map(str::to_string),
        };
        self.append_event("decision", Some(task_id), &super::decision_json(&d))?;
        Ok(d)
    }

    /// Appends one critic vote (verdict, severity, confidence and pool fit are indexed columns).
    pub fn record_vote(&self, vote: &Vote) -> Result<i64> {
        let field = |k: &str| {
            vote.vote
                .get(k)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let confidence = vote.vote.get("confidence").and_then(|v| v.as_f64());
        let verdict = field("verdict").ok_or_else(|| {
            StoreError::Invalid(format!(
                "vote of {} on {} has no verdict",
                vote.critic, vote.task_id
            ))
        })?;
        let id: i64 = self.tx.prepare_cached("INSERT INTO votes (task_id, critic, model, verdict, severity, confidence, pool_fit, \
             vote_json, created_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9) RETURNING id")?.query_row(params![
                vote.task_id,
                vote.critic,
                vote.model,
                verdict,
                field("severity"),
                confidence,
                field("training_pool_fit"),
                serde_json::to_string(&vote.vote)?,
                vote.created_at.clone().unwrap_or_else(now)
            ], |r| r.get(0),
        )?;
        let payload = serde_json::json!({"id": id, "critic": vote.critic, "verdict": verdict});
        self.append_event("vote.recorded", Some(&vote.task_id), &payload)?;
        Ok(id)
    }

    /// Appends one teacher rollout.
    pub fn record_rollout(&self, r: &Rollout) -> Result<i64> {
        let id: i64 = self.tx.prepare_cached("INSERT INTO rollouts (task_id, model, trial, reward, judge_verdict, failure, detail_json, \
             created_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8) RETURNING id")?.query_row(params![
                r.task_id,
                r.model,
                r.trial,
                r.reward,
                r.judge_verdict,
                r.failure,
                serde_json::to_string(&r.detail)?,
                r.created_at.clone().unwrap_or_else(now)
            ], |r| r.get(0),
        )?;
        let payload =
            serde_json::json!({"id": id, "model": r.model, "trial": r.trial, "reward": r.reward});
        self.append_event("rollout.recorded", Some(&r.task_id), &payload)?;
        Ok(id)
    }
}

impl Store {
    /// Every decision of a task, oldest first.
    pub fn decisions(&self, task_id: &str) -> Result<Vec<Decision>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {DECISION_COLUMNS} FROM decisions WHERE task_id = ?1 ORDER BY id"
        ))?;
        let rows = stmt.query_map(params![task_id], decision_from_row)?;
        rows.collect::<Result<_>>()
    }

    /// Every decision of the bulk decision `group` (its undos included), oldest first.
    pub fn group_decisions(&self, group: &str) -> Result<Vec<Decision>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {DECISION_COLUMNS} FROM decisions WHERE group_id = ?1 ORDER BY id"
        ))?;
        let rows = stmt.query_map(params![group], decision_from_row)?;
        rows.collect::<Result<_>>()
    }

    /// Every tuple's status, by task id (what a bulk decision checks before writing).
    pub fn statuses(&self) -> Result<std::collections::HashMap<String, String>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT task_id, status FROM tuples")?;
        let rows = stmt.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_>>()
    }

    /// The newest bulk decision group with a decision by `actor` not yet undone, if any.
    pub fn latest_open_group(&self, actor: &str) -> Result<Option<String>> {
        self.conn
            .query_row(
                "SELECT d.group_id FROM decisions d WHERE d.group_id IS NOT NULL AND d.actor = ?1 \
                 AND d.compensates IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = d.id) \
                 ORDER BY d.id DESC LIMIT 1",
                params![actor],
                |r| r.get(0),
            )
            .optional()
    }

    /// The effective status derived from the decision log alone (`pending` without decisions).
    pub fn effective_status(&self, task_id: &str) -> Result<String> {
        Ok(self
            .conn
            .query_row(
                "SELECT after FROM decisions WHERE task_id = ?1 ORDER BY id DESC LIMIT 1",
                params![task_id],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or_else(|| TupleStatus::Pending.as_str().to_string()))
    }

    /// Every vote on a task, oldest first.
    pub fn votes(&self, task_id: &str) -> Result<Vec<Vote>> {
        load_votes(&self.conn, task_id)
    }

    /// Every rollout of a task, oldest first.
    pub fn rollouts(&self, task_id: &str) -> Result<Vec<Rollout>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT model, trial, reward, judge_verdict, failure, detail_json, created_at \
             FROM rollouts WHERE task_id = ?1 ORDER BY id",
        )?;
        let rows: Vec<(Rollout, String)> = stmt
            .query_map(params![task_id], |r| {
                Ok((
                    Rollout {
                        task_id: task_id.to_string(),
                        model: r.get(0)?,
                        trial: r.get(1)?,
                        reward: r.get(2)?,
                        judge_verdict: r.get(3)?,
                        failure: r.get(4)?,
                        detail: serde_json::Value::Null,
                        created_at: r.get(6)?,
                    },
                    r.get(5)?,
                ))
            })?
            .collect::<Result<_>>()?;
        rows.into_iter()
            .map(|(mut r, d)| {
                r.detail = serde_json::from_str(&d)?;
                Ok(r)
            })
            .collect()
    }
}

fn load_votes(conn: &Conn, task_id: &str) -> Result<Vec<Vote>> {
    let mut stmt = conn.prepare_cached(
        "SELECT critic, model, vote_json, created_at FROM votes WHERE task_id = ?1 ORDER BY id",
    )?;
    let rows: Vec<(String, Option<String>, String, String)> = stmt
        .query_map(params![task_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_>>()?;
    rows.into_iter()
        .map(|(critic, model, json, at)| {
            Ok(Vote {
                task_id: task_id.to_string(),
                critic,
                model,
                vote: serde_json::from_str(&json)?,
                created_at: Some(at),
            })
        })
        .collect()
}
