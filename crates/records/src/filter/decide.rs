//! The one decision interface: the critic aggregate, a rules file, the CLI `override` and the TUI
//! all change a tuple's filter outcome through [`apply`], which appends a decision (actor, source,
//! before, after, reason, time) and, in the same transaction, a `filter.outcome` event carrying the
//! released instruction. The effective outcome ([`effective_outcome`]) is the latest one whose
//! decision has not been undone; an undo is a compensating decision ([`Action::Undo`]).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tuplewright_base::store::db::{params, OptionalExt};

use tuplewright_base::store::Bus;
use tuplewright_base::store::{Decision, DecisionSource, Store, StoreError, TupleStatus, Tx};

use super::aggregate::Aggregate;
use super::FilterError;

/// Event kind holding a filter outcome.
pub const OUTCOME_EVENT: &str = "filter.outcome";

/// The filter-outcome action of a re-run (`run --rerun`): no filter decision is in force until
/// the new tuple is decided again.
pub const RERUN_ACTION: &str = "rerun";

/// What a decision does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", content = "query", rename_all = "snake_case")]
pub enum Action {
    /// Keep with the original instruction.
    Keep,
    /// Keep with this instruction instead.
    ModifyQuery(String),
    /// Leave the tuple out.
    Reject,
    /// Queue it for a human.
    Queue,
    /// Undo the latest decision not yet undone.
    Undo,
}

impl Action {
    /// The action's name.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Keep => "keep",
            Action::ModifyQuery(_) => "modify_query",
            Action::Reject => "reject",
            Action::Queue => "queue",
            Action::Undo => "undo",
        }
    }
}

/// One decision to apply.
#[derive(Debug, Clone)]
pub struct DecisionRequest<'a> {
    /// The task.
    pub task_id: &'a str,
    /// What to do.
    pub action: Action,
    /// Who (a user name, `critic-vote`, `rules:FILE`).
    pub actor: &'a str,
    /// human | policy | llm.
    pub source: DecisionSource,
    /// Why (required non-empty for humans).
    pub reason: &'a str,
    /// The critic aggregate behind it, if any (kept in the outcome record).
    pub aggregate: Option<&'a Aggregate>,
}

/// The filter outcome in force for a tuple.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilterRecord {
    /// The decision that set it.
    pub decision_id: i64,
    /// keep | modify_query | reject | queue.
    pub action: String,
    /// The released instruction when modified.
    pub revised_query: Option<String>,
    /// Most severe vote severity, when votes exist.
    pub severity: Option<String>,
    /// Majority of votes judged the pool fit poor.
    pub train_poor_fit: bool,
    /// Who decided.
    pub actor: String,
    /// human | policy | llm.
    pub source: String,
}

/// The actor recorded for a person's decision: the name given (`--actor`), else the OS user
/// (`$USER`), else `human`. The CLI `override` and the workbench both use it.
pub fn human_actor(given: Option<&str>) -> String {
    given
        .map(str::to_string)
        .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| "human".into())
}

/// The status a decision moves a tuple to, or why it may not be decided.
fn target(current: TupleStatus, action: &Action, source: DecisionSource) -> Option<TupleStatus> {
    if !current.passed_loop() && current != TupleStatus::Dropped {
        return None;
    }
    let late = matches!(current, TupleStatus::RolloutRejected | TupleStatus::Final);
    Some(match action {
        Action::Keep | Action::ModifyQuery(_) if late => TupleStatus::Final,
        Action::Keep | Action::ModifyQuery(_) => TupleStatus::Voted,
        Action::Reject if source == DecisionSource::Human || late => TupleStatus::Dropped,
        Action::Reject => TupleStatus::VoteRejected,
        Action::Queue => TupleStatus::NeedsHuman,
        Action::Undo => return None,
    })
}

/// Whether a tuple in status `status` may be decided by a person with `action` (what
/// [`apply_in`] would accept); undo is not a decision here.
pub fn decidable(status: &str, action: &Action) -> bool {
    TupleStatus::parse(status)
        .and_then(|s| target(s, action, DecisionSource::Human))
        .is_some()
}

/// The status a person's or a rule's decision `action` moves a tuple in `status` to, or `None`
/// when it may not be decided (what [`apply_in`] checks; a bulk decision checks a set with it).
pub fn target_status(status: &str, action: &Action, source: DecisionSource) -> Option<TupleStatus> {
    TupleStatus::parse(status).and_then(|s| target(s, action, source))
}

/// Applies one decision inside an open transaction. Returns the decision appended.
pub fn apply_in(tx: &Tx<'_>, req: &DecisionRequest<'_>) -> Result<Decision, FilterError> {
    apply_grouped_in(tx, req, None)
}

/// [`apply_in`] as part of the bulk decision `group` (issue #33) when one is given.
pub fn apply_grouped_in(
    tx: &Tx<'_>,
    req: &DecisionRequest<'_>,
    group: Option<&str>,
) -> Result<Decision, FilterError> {
    if req.source == DecisionSource::Human && req.reason.trim().is_empty() {
        return Err(FilterError::Invalid(
            "a human decision needs a reason (--reason TEXT)".into(),
        ));
    }
    let (status, instruction) = tx
        .status_and_instruction(req.task_id)?
        .ok_or_else(|| StoreError::UnknownTask(req.task_id.to_string()))?;
    if req.action == Action::Undo {
        return tx
            .undo_last_decision(req.task_id, req.actor, req.source, req.reason)?
            .ok_or_else(|| FilterError::NothingToUndo(req.task_id.to_string()));
    }
    if let Action::ModifyQuery(q) = &req.action {
        if q.trim().is_empty() {
            return Err(FilterError::Invalid(
                "modify_query needs the new instruction (--query TEXT)".into(),
            ));
        }
    }
    let current = TupleStatus::parse(&status)
        .ok_or_else(|| StoreError::Invalid(format!("unknown status {status}")))?;
    let after =
        target(current, &req.action, req.source).ok_or_else(|| FilterError::NotEligible {
            task: req.task_id.to_string(),
            status: status.clone(),
        })?;
    let reason = match &req.action {
        Action::ModifyQuery(q) => {
            format!("{}: {} (instruction: {q:?})", req.action.name(), req.reason)
        }
        a => format!("{}: {}", a.name(), req.reason),
    };
    // The status was just read in this transaction: not read again (#33, bulk decisions).
    let who = (req.actor, req.source);
    let decision =
        tx.record_decision_from(req.task_id, Some(&status), after, who, &reason, group)?;
    let prev = match req.aggregate {
        Some(_) => None,
        None => outcome_in(tx.conn(), req.task_id)?,
    };
    let payload = outcome_json(&decision, req, &instruction, prev.as_ref(), group)?;
    tx.append_event(OUTCOME_EVENT, Some(req.task_id), &payload)?;
    Ok(decision)
}

/// Applies one decision in its own transaction.
pub fn apply(store: &mut Store, req: &DecisionRequest<'_>) -> Result<Decision, FilterError> {
    store.write(|tx| apply_in(tx, req))
}

/// Applies one decision through the harness [`Bus`] (what a face sharing a running engine uses):
/// listeners see the decision's events once committed. Validation errors write nothing.
pub fn apply_on_bus(bus: &Bus, req: &DecisionRequest<'_>) -> Result<Decision, FilterError> {
    bus.write(|tx| match apply_in(tx, req) {
        Ok(d) => Ok(Ok(d)),
        // Only store errors can happen after a write: they roll the transaction back.
        Err(FilterError::Store(e)) => Err(e),
        Err(other) => Ok(Err(other)),
    })?
}

/// The `filter.outcome` event's payload of `decision` made by `req` on a tuple whose instruction
/// was `instruction`: the released instruction and the grade (the critics' aggregate, else the
/// grade of `prev`, the outcome in force before: a human or rule decision keeps it).
pub fn outcome_json(
    decision: &Decision,
    req: &DecisionRequest<'_>,
    instruction: &str,
    prev: Option<&FilterRecord>,
    group: Option<&str>,
) -> Result<Value, StoreError> {
    let agg = req.aggregate;
    let mut payload = json!({
        "decision_id": decision.id,
        "action": req.action.name(),
        "revised_query": match &req.action { Action::ModifyQuery(q) => Some(q.trim()), _ => None },
        "original_instruction": instruction,
        "severity": agg.and_then(|a| a.severity).map(|s| s.as_str()),
        "train_poor_fit": agg.is_some_and(|a| a.train_poor_fit),
        "actor": req.actor,
        "source": req.source.as_str(),
        "group": group,
    });
    if let Some(a) = agg {
        payload["aggregate"] = serde_json::to_value(a)?;
    } else if let Some(prev) = prev {
        payload["severity"] = json!(prev.severity);
        payload["train_poor_fit"] = json!(prev.train_poor_fit);
    }
    Ok(payload)
}

fn outcome_in(
    conn: &tuplewright_base::store::db::Conn,
    task_id: &str,
) -> Result<Option<FilterRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT e.payload FROM events e WHERE e.kind = ?1 AND e.task_id = ?2 \
         AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = \
         CAST(json_extract(e.payload, '$.decision_id') AS INTEGER)) ORDER BY e.seq DESC LIMIT 1",
    )?;
    let payload: Option<String> = stmt
        .query_row(params![OUTCOME_EVENT, task_id], |r| r.get(0))
        .optional()?;
    payload.map_or(Ok(None), |p| parse_outcome(&p))
}

/// A stored `filter.outcome` payload as the outcome it records; `None` for a re-run's (which
/// takes the earlier outcome out of force).
pub fn parse_outcome(payload: &str) -> Result<Option<FilterRecord>, StoreError> {
    let v: Value = serde_json::from_str(payload)?;
    // A re-run (`run --rerun`) takes the earlier outcome out of force.
    if v["action"] == RERUN_ACTION {
        return Ok(None);
    }
    Ok(Some(FilterRecord {
        decision_id: v["decision_id"].as_i64().unwrap_or(0),
        action: v["action"].as_str().unwrap_or_default().to_string(),
        revised_query: v["revised_query"].as_str().map(str::to_string),
        severity: v["severity"].as_str().map(str::to_string),
        train_poor_fit: v["train_poor_fit"].as_bool().unwrap_or(false),
        actor: v["actor"].as_str().unwrap_or_default().to_string(),
        source: v["source"].as_str().unwrap_or_default().to_string(),
    }))
}

/// The filter outcome in force for a tuple (`None` when it never went through the filter, every
/// filter decision was undone, or it was re-run since).
pub fn effective_outcome(store: &Store, task_id: &str) -> Result<Option<FilterRecord>, StoreError> {
    outcome_in(store.conn(), task_id)
}
