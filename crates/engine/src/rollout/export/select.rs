//! Which trials an export takes, in the form it writes them: the reward floor (success only for
//! SFT), the policy and source filters, for SFT and slices the dedup of identical action
//! sequences and `--trials-per-task`, then trials without model text rendered in the chosen
//! wire (with thoughts when asked). Every trial left out is named with its reason.

use std::collections::{BTreeMap, HashSet};

use super::errors::RenderSkip;
use super::load::Trajectory;
use super::render::{groups, render, Group};
use super::{trajectories, ExportError, ExportOptions, Format};
use crate::rollout::vlm::Coords;
use tuplewright_base::store::{Store, TaskFilter};

/// A trial as exported.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The trajectory (rendered when it had no model text).
    pub t: Trajectory,
    /// The wire of a rendered trial (`None`: the model's verbatim replies).
    pub wire: Option<&'static str>,
    /// The coordinates of a rendered trial.
    pub coords: Option<Coords>,
    /// Largest snap distance of a rendered trial's points, screen pixels.
    pub snap_px: i32,
}

/// The trials an export takes and the reasons others were left out.
pub struct Selection {
    /// Trials to write, oldest first per task.
    pub trials: Vec<Prepared>,
    /// `<task> trial <n> (<policy>): <reason>`.
    pub skipped: Vec<String>,
}

fn task_ids(store: &Store, opts: &ExportOptions<'_>) -> Result<Vec<String>, ExportError> {
    Ok(if opts.tasks.is_empty() {
        store
            .list_tasks(&TaskFilter::default())?
            .into_iter()
            .map(|t| t.task.task_id)
            .collect()
    } else {
        opts.tasks.to_vec()
    })
}

/// The actions of a trial in order and its reward, as one comparable text (the same actions
/// scored differently are both kept: the difference is the environment's).
fn action_key(t: &Trajectory) -> String {
    let all: Vec<&serde_json::Value> = t.turns.iter().flat_map(|x| &x.actions).collect();
    format!(
        "{} {}",
        t.reward,
        serde_json::to_string(&all).unwrap_or_default()
    )
}

/// Selects and prepares the trials.
pub fn select(store: &Store, opts: &ExportOptions<'_>) -> Result<Selection, ExportError> {
    let floor = opts.min_reward.or(opts.format.default_min_reward());
    let training = opts.format != Format::Osworld;
    let (mut trials, mut skipped) = (Vec::new(), Vec::new());
    for id in task_ids(store, opts)? {
        let mut seen: BTreeMap<String, i64> = BTreeMap::new();
        let mut kept = 0usize;
        for t in trajectories(store, &id)? {
            let name = format!("{} trial {} ({})", t.task_id, t.trial, t.model);
            if opts.model.is_some_and(|m| m != t.model)
                || (!opts.sources.is_empty() && !opts.sources.iter().any(|s| s == t.source()))
            {
                continue;
            }
            if let Some(f) = floor.filter(|f| t.reward < f - 1e-9) {
                skipped.push(format!("{name}: reward {} below {f}", t.reward));
                continue;
            }
            if !training {
                trials.push(Prepared {
                    t,
                    wire: None,
                    coords: None,
                    snap_px: 0,
                });
                continue;
            }
            let grouped: Option<Vec<Group>> = if t.has_model {
                None
            } else {
                match groups(&t, opts.render.batching) {
                    Ok(g) => Some(g),
                    Err(e) => {
                        skipped.push(format!("{name}: {e}"));
                        continue;
                    }
                }
            };
            if opts.dedup {
                if let Some(first) = seen.get(&action_key(&t)) {
                    skipped.push(format!("{name}: the same actions as trial {first}"));
                    continue;
                }
                seen.insert(action_key(&t), t.trial);
            }
            if opts.trials_per_task.is_some_and(|n| kept >= n) {
                skipped.push(format!("{name}: over --trials-per-task"));
                continue;
            }
            match prepare(t, grouped, opts)? {
                Ok(p) => {
                    kept += 1;
                    trials.push(p);
                }
                Err(e) => skipped.push(format!("{name}: {e}")),
            }
        }
    }
    Ok(Selection { trials, skipped })
}

/// A model trial as it is; a trial without model text rendered (`Ok(Err(reason))`: it cannot
/// be).
fn prepare(
    t: Trajectory,
    grouped: Option<Vec<Group>>,
    opts: &ExportOptions<'_>,
) -> Result<Result<Prepared, RenderSkip>, ExportError> {
    let Some(grouped) = grouped else {
        return Ok(Ok(Prepared {
            t,
            wire: None,
            coords: None,
            snap_px: 0,
        }));
    };
    if t.first.is_none() {
        return Ok(Err(RenderSkip::NoFirstObservation));
    }
    let thoughts = match opts.thoughts {
        Some(w) => w.thoughts(&t, &grouped)?,
        None => Vec::new(),
    };
    Ok(
        render(&t, &grouped, &thoughts, &opts.render).map(|r| Prepared {
            t: r.trajectory,
            wire: Some(opts.render.wire.name()),
            coords: Some(r.coords),
            snap_px: r.snap_px,
        }),
    )
}

/// Per-domain counts of an export: tasks, trials and records.
pub fn balance(trials: &[Prepared], records: &[usize]) -> BTreeMap<String, serde_json::Value> {
    let mut out: BTreeMap<String, (HashSet<&str>, usize, usize)> = BTreeMap::new();
    for (p, n) in trials.iter().zip(records) {
        let e = out.entry(p.t.domain.clone()).or_default();
        e.0.insert(&p.t.task_id);
        e.1 += 1;
        e.2 += n;
    }
    let total: usize = records.iter().sum::<usize>().max(1);
    out.into_iter()
        .map(|(d, (tasks, trials, recs))| {
            let share = (recs as f64 / total as f64 * 1000.0).round() / 10.0;
            (
                d,
                serde_json::json!({"tasks": tasks.len(), "trials": trials, "records": recs,
                    "share_percent": share}),
            )
        })
        .collect()
}
