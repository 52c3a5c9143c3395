//! Deciding queued tuples without a person: a [`Decider`] looks at a [`TupleView`] and may return
//! an action; [`decide_all`] applies it through the one decision interface ([`super::apply_in`]).
//! [`Rules`] is the TOML-file decider for `--no-tui` runs; the TUI's override screen applies a
//! person's choice through the same [`super::apply`].
//!
//! ```toml
//! statuses = ["needs_human"]   # which tuples the rules decide (default)
//! [[rule]]
//! severity = ["P0"]            # the tuple's worst vote severity; "none" = no valid vote
//! action = "reject"
//! [[rule]]
//! severity = ["P3"]
//! action = "keep"
//! # no matching rule: the tuple stays queued
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use tuplewright_base::store::{Decision, DecisionSource, Store, TaskFilter};

use super::decide::{apply_in, effective_outcome, Action, DecisionRequest};
use super::vote::Severity;
use super::FilterError;

/// What a decider may look at.
#[derive(Debug, Clone, PartialEq)]
pub struct TupleView {
    /// The task.
    pub task_id: String,
    /// Current status.
    pub status: String,
    /// Worst severity any valid vote gave (`None` without valid votes).
    pub severity: Option<Severity>,
}

/// Anything that can decide a tuple (a rules file, a person behind a screen).
pub trait Decider {
    /// The action and its reason, or `None` to leave the tuple as it is.
    fn decide(&self, view: &TupleView) -> Option<(Action, String)>;
}

/// An action a rule may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleAction {
    /// Keep the original instruction.
    Keep,
    /// Reject.
    Reject,
    /// Leave queued.
    Queue,
}

/// One rule: all its conditions must hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Worst vote severities this rule matches (`P0`..`P3`, `none`); empty = any.
    #[serde(default)]
    pub severity: Vec<String>,
    /// What to do.
    pub action: RuleAction,
}

/// A rules file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Statuses the rules decide.
    #[serde(default = "default_statuses")]
    pub statuses: Vec<String>,
    /// Rules, first match wins.
    #[serde(default, rename = "rule")]
    pub rules: Vec<Rule>,
}

fn default_statuses() -> Vec<String> {
    vec!["needs_human".into()]
}

impl Rules {
    /// Parses a rules file; errors name the file, the key path and the problem.
    pub fn parse(text: &str, origin: &Path) -> Result<Self, FilterError> {
        let bad = |m: String| FilterError::Invalid(format!("rules file {}: {m}", origin.display()));
        let de = toml::Deserializer::parse(text).map_err(|e| bad(e.to_string()))?;
        let rules: Rules = serde_path_to_error::deserialize(de)
            .map_err(|e| bad(format!("`{}`: {}", e.path(), e.inner())))?;
        for (i, r) in rules.rules.iter().enumerate() {
            for s in &r.severity {
                if s != "none" && Severity::parse(s).is_none() {
                    return Err(bad(format!(
                        "`rule[{i}].severity`: {s:?} is not P0, P1, P2, P3 or none"
                    )));
                }
            }
        }
        Ok(rules)
    }

    /// Reads and parses a rules file.
    pub fn load(path: &Path) -> Result<Self, FilterError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            FilterError::Invalid(format!("cannot read rules file {}: {e}", path.display()))
        })?;
        Self::parse(&text, path)
    }
}

impl Decider for Rules {
    fn decide(&self, view: &TupleView) -> Option<(Action, String)> {
        let sev = view.severity.map_or("none", Severity::as_str);
        let (i, rule) = self
            .rules
            .iter()
            .enumerate()
            .find(|(_, r)| r.severity.is_empty() || r.severity.iter().any(|s| s == sev))?;
        let action = match rule.action {
            RuleAction::Keep => Action::Keep,
            RuleAction::Reject => Action::Reject,
            RuleAction::Queue => return None,
        };
        Some((action, format!("rule {} matched severity {sev}", i + 1)))
    }
}

/// Applies `decider` to every tuple in `statuses` (or the listed `tasks`): one transaction each.
pub fn decide_all(
    store: &mut Store,
    decider: &dyn Decider,
    statuses: &[String],
    tasks: &[String],
    actor: &str,
) -> Result<Vec<Decision>, FilterError> {
    let mut out = Vec::new();
    for t in store.list_tasks(&TaskFilter::default())? {
        let id = t.task.task_id.clone();
        if !statuses.contains(&t.status) || (!tasks.is_empty() && !tasks.contains(&id)) {
            continue;
        }
        let severity = effective_outcome(store, &id)?
            .and_then(|o| o.severity)
            .and_then(|s| Severity::parse(&s));
        let view = TupleView {
            task_id: id.clone(),
            status: t.status.clone(),
            severity,
        };
        let Some((action, reason)) = decider.decide(&view) else {
            continue;
        };
        let d = store.write(|tx| {
            apply_in(
                tx,
                &DecisionRequest {
                    task_id: &id,
                    action,
                    actor,
                    source: DecisionSource::Policy,
                    reason: &reason,
                    aggregate: None,
                },
            )
        })?;
        out.push(d);
    }
    Ok(out)
}
