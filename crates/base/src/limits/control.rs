//! Controls every worker of a shared store obeys, held in the store (`store_controls`, schema
//! v10) so that one command — `tuplewright job pause|resume|cancel`, or the workbench's pause and
//! cancel on a shared store — reaches all of them, on any host:
//!
//! - `workers.job`: the job state. Workers read it before every claim and, while tasks are in
//!   flight, every `WorkerOptions::control_poll` (worker). `paused`: no new claim, the tasks in
//!   flight finish (drain). `cancelled`: the tasks in flight are abandoned exactly like Ctrl-C (the
//!   round in progress is never stored, the task goes back to `pending`, its lease is released) and
//!   every worker exits; a worker started later exits at once, until `resume`.
//! - `budget.tokens`: a global token budget over the `usage` rows the providers record (input +
//!   output tokens, all stages, all workers). When it is spent workers stop claiming, finish the
//!   tasks in flight and exit.
//! - `budget.usd`: the same in US dollars, over the cost each `usage` row records (schema v11: the
//!   provider prices configured when the call was made; rows without a cost count 0).
//!
//! Every change is one transaction with its event (`workers.paused`, `workers.resumed`,
//! `workers.cancelled`, `workers.budget`), so the workbench on the same store shows it.

use serde::Serialize;
use serde_json::json;

use crate::store::db::{params, Conn, OptionalExt};
use crate::store::{now, StoreError, Tx};

/// The control row of the job state.
pub const JOB_KEY: &str = "workers.job";
/// The control row of the global token budget.
pub const BUDGET_TOKENS_KEY: &str = "budget.tokens";
/// The control row of the global cost budget (USD).
pub const BUDGET_USD_KEY: &str = "budget.usd";

/// The state of the job every worker of the store runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Workers claim tasks (also when no control was ever set).
    Running,
    /// Workers finish the tasks in flight and claim nothing until resumed.
    Paused,
    /// Workers abandon the tasks in flight (left `pending`) and exit.
    Cancelled,
}

impl JobState {
    /// The stored form.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Running => "running",
            JobState::Paused => "paused",
            JobState::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Result<Self, StoreError> {
        match s {
            "running" => Ok(JobState::Running),
            "paused" => Ok(JobState::Paused),
            "cancelled" => Ok(JobState::Cancelled),
            other => Err(StoreError::Invalid(format!(
                "store control {JOB_KEY} holds `{other}` (expected running, paused or cancelled)"
            ))),
        }
    }

    fn event(self) -> &'static str {
        match self {
            JobState::Running => "workers.resumed",
            JobState::Paused => "workers.paused",
            JobState::Cancelled => "workers.cancelled",
        }
    }
}

/// Who asks (`what (host pid N)`), for the control row and its event.
pub fn requester(what: &str) -> String {
    let me = crate::lease::Owner::current();
    format!("{what} ({} pid {})", me.host, me.pid)
}

/// One control's value, if set.
pub fn get(conn: &Conn, name: &str) -> Result<Option<String>, StoreError> {
    conn.query_row(
        "SELECT value FROM store_controls WHERE name = ?1",
        params![name],
        |r| r.get(0),
    )
    .optional()
}

fn put(tx: &Tx<'_>, name: &str, value: &str, by: &str) -> Result<(), StoreError> {
    tx.conn().execute(
        "INSERT INTO store_controls (name, value, updated_at, updated_by) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, \
         updated_at = excluded.updated_at, updated_by = excluded.updated_by",
        params![name, value, now(), by],
    )?;
    Ok(())
}

/// Sets control `name` to `value`, or removes it (`None`).
pub fn set_or_clear(
    tx: &Tx<'_>,
    name: &str,
    value: Option<String>,
    by: &str,
) -> Result<(), StoreError> {
    match value {
        Some(v) => put(tx, name, &v, by),
        None => {
            tx.conn()
                .execute("DELETE FROM store_controls WHERE name = ?1", params![name])?;
            Ok(())
        }
    }
}

/// The job state (`running` when never set).
pub fn job_state(conn: &Conn) -> Result<JobState, StoreError> {
    get(conn, JOB_KEY)?.map_or(Ok(JobState::Running), |s| JobState::parse(&s))
}

/// Moves the job to `to` and records its event (`by` names who asked, say `job pause (host pid
/// N)`); returns the previous state, or `None` (nothing written) when the move is not allowed:
/// pause only a running job, cancel a running or paused one, resume a paused or cancelled one.
pub fn set_job_state(tx: &Tx<'_>, to: JobState, by: &str) -> Result<Option<JobState>, StoreError> {
    let from = job_state(tx.conn())?;
    let allowed = match to {
        JobState::Paused => from == JobState::Running,
        JobState::Cancelled => from != JobState::Cancelled,
        JobState::Running => from != JobState::Running,
    };
    if !allowed {
        return Ok(None);
    }
    put(tx, JOB_KEY, to.as_str(), by)?;
    tx.append_event(
        to.event(),
        None,
        &json!({"from": from.as_str(), "to": to.as_str(), "by": by}),
    )?;
    Ok(Some(from))
}

/// The global token budget, if one is set.
pub fn token_budget(conn: &Conn) -> Result<Option<i64>, StoreError> {
    get(conn, BUDGET_TOKENS_KEY)?
        .map(|v| {
            v.parse::<i64>().map_err(|_| {
                StoreError::Invalid(format!(
                    "store control {BUDGET_TOKENS_KEY} holds `{v}`, not a whole number of tokens"
                ))
            })
        })
        .transpose()
}

/// Sets (`Some`) or removes (`None`) the global token budget, recording `workers.budget`.
pub fn set_token_budget(tx: &Tx<'_>, tokens: Option<i64>, by: &str) -> Result<(), StoreError> {
    if let Some(n) = tokens.filter(|n| *n < 0) {
        return Err(StoreError::Invalid(format!(
            "a token budget must not be negative (got {n})"
        )));
    }
    set_or_clear(tx, BUDGET_TOKENS_KEY, tokens.map(|n| n.to_string()), by)?;
    tx.append_event("workers.budget", None, &json!({"tokens": tokens, "by": by}))?;
    Ok(())
}

/// Tokens spent so far: input + output over every `usage` row of the store.
pub fn tokens_used(conn: &Conn) -> Result<i64, StoreError> {
    conn.query_row(
        "SELECT CAST(COALESCE(SUM(input_tokens + output_tokens), 0) AS BIGINT) FROM usage",
        [],
        |r| r.get(0),
    )
}

/// `(used, budget)` when a budget is set and spent (used ≥ budget).
pub fn budget_spent(conn: &Conn) -> Result<Option<(i64, i64)>, StoreError> {
    let Some(budget) = token_budget(conn)? else {
        return Ok(None);
    };
    let used = tokens_used(conn)?;
    Ok((used >= budget).then_some((used, budget)))
}

/// The global cost budget in USD, if one is set.
pub fn usd_budget(conn: &Conn) -> Result<Option<f64>, StoreError> {
    get(conn, BUDGET_USD_KEY)?
        .map(|v| match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
            _ => Err(StoreError::Invalid(format!(
                "store control {BUDGET_USD_KEY} holds `{v}`, not an amount of US dollars"
            ))),
        })
        .transpose()
}

/// Sets (`Some`) or removes (`None`) the global cost budget in USD, recording `workers.budget`.
pub fn set_usd_budget(tx: &Tx<'_>, usd: Option<f64>, by: &str) -> Result<(), StoreError> {
    if let Some(x) = usd.filter(|x| !(x.is_finite() && *x >= 0.0)) {
        return Err(StoreError::Invalid(format!(
            "a cost budget must be a finite, non-negative number of US dollars (got {x})"
        )));
    }
    set_or_clear(tx, BUDGET_USD_KEY, usd.map(|x| x.to_string()), by)?;
    tx.append_event("workers.budget", None, &json!({"usd": usd, "by": by}))?;
    Ok(())
}

/// US dollars spent so far: the cost recorded with every `usage` row of the store (rows without
/// one, recorded before schema v11, count 0).
pub fn usd_used(conn: &Conn) -> Result<f64, StoreError> {
    conn.query_row(
        "SELECT CAST(COALESCE(SUM(cost_usd), 0) AS DOUBLE PRECISION) FROM usage",
        [],
        |r| r.get(0),
    )
}

/// `(used, budget)` in USD when a cost budget is set and spent (used ≥ budget).
pub fn usd_budget_spent(conn: &Conn) -> Result<Option<(f64, f64)>, StoreError> {
    let Some(budget) = usd_budget(conn)? else {
        return Ok(None);
    };
    let used = usd_used(conn)?;
    Ok((used >= budget).then_some((used, budget)))
}

/// What `job status` shows.
#[derive(Debug, Clone, Serialize)]
pub struct ControlStatus {
    /// The job state.
    pub state: JobState,
    /// Who set it last and when (`None` when never set).
    pub updated: Option<(String, String)>,
    /// The token budget, if any.
    pub budget_tokens: Option<i64>,
    /// Tokens spent so far.
    pub tokens_used: i64,
    /// The cost budget in USD, if any.
    pub budget_usd: Option<f64>,
    /// US dollars spent so far (the costs recorded with the usage rows).
    pub usd_used: f64,
    /// Task leases held now (tasks in flight on any worker).
    pub leases: i64,
}

/// The controls and what they govern, for `job status`.
pub fn status(conn: &Conn) -> Result<ControlStatus, StoreError> {
    let updated = conn
        .query_row(
            "SELECT updated_by, updated_at FROM store_controls WHERE name = ?1",
            params![JOB_KEY],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(ControlStatus {
        state: job_state(conn)?,
        updated,
        budget_tokens: token_budget(conn)?,
        tokens_used: tokens_used(conn)?,
        budget_usd: usd_budget(conn)?,
        usd_used: usd_used(conn)?,
        leases: conn.query_row("SELECT COUNT(*) FROM task_leases", [], |r| r.get(0))?,
    })
}
