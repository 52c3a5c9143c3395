//! Agreement between curators: for every pair of curators, the tuples both decided (their latest
//! decision in force each), how many they decided alike, and Cohen's κ over the labels keep /
//! modify_query / reject. Also the list of tuples two curators decided differently, and the
//! `third_decides` conflict policy that sends such a tuple back to the human queue.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::filter::{apply_grouped_in, Action, DecisionRequest};
use tuplewright_base::store::db::{params, Conn};
use tuplewright_base::store::{DecisionSource, Store, StoreError, Tx};

use super::{ConflictPolicy, CurateError};

/// The actor recorded on the queue decision of the `third_decides` policy.
pub const CONFLICT_ACTOR: &str = "conflict-policy";

/// One pair of curators.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairAgreement {
    /// First curator (alphabetical).
    pub a: String,
    /// Second curator.
    pub b: String,
    /// Tuples both decided.
    pub tuples: usize,
    /// Tuples they decided alike.
    pub agreed: usize,
    /// agreed / tuples.
    pub observed: f64,
    /// Cohen's κ; `None` when undefined (no tuple, or both used one label only).
    pub kappa: Option<f64>,
}

/// A tuple two curators decided differently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    /// The task.
    pub task_id: String,
    /// First curator and their decision.
    pub a: (String, String),
    /// Second curator and their decision.
    pub b: (String, String),
}

/// Agreement over the whole store.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Agreement {
    /// Every curator with a decision in force.
    pub curators: Vec<String>,
    /// Every pair that decided at least one tuple in common.
    pub pairs: Vec<PairAgreement>,
    /// How many tuples two curators decided differently.
    pub disagreeing_tuples: usize,
    /// The tuples decided differently, by task id (one entry per pair of curators).
    #[serde(skip)]
    pub disagreements: Vec<Disagreement>,
}

/// Cohen's κ of paired labels; `None` when the expected agreement is 1 (or no pair).
pub fn cohen_kappa(pairs: &[(&str, &str)]) -> Option<f64> {
    let n = pairs.len() as f64;
    if pairs.is_empty() {
        return None;
    }
    let observed = pairs.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let labels: BTreeSet<&str> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let expected: f64 = labels
        .iter()
        .map(|l| {
            let pa = pairs.iter().filter(|(a, _)| a == l).count() as f64 / n;
            let pb = pairs.iter().filter(|(_, b)| b == l).count() as f64 / n;
            pa * pb
        })
        .sum();
    ((1.0 - expected).abs() > 1e-12).then(|| (observed - expected) / (1.0 - expected))
}

/// The decision label of a human decision's reason (`keep: …`, `reject: …`, `modify_query: …`).
fn label(reason: &str) -> Option<&str> {
    ["keep", "reject", "modify_query"]
        .into_iter()
        .find(|l| reason.starts_with(&format!("{l}:")))
}

/// Each curator's label in force per task: task → curator → (decision id, label).
type Latest = BTreeMap<String, BTreeMap<String, (i64, String)>>;

fn latest_labels(conn: &Conn, task: Option<&str>) -> Result<Latest, StoreError> {
    let base = "SELECT d.id, d.task_id, d.actor, d.reason FROM decisions d \
         WHERE d.source = 'human' AND d.compensates IS NULL \
         AND NOT EXISTS (SELECT 1 FROM decisions c WHERE c.compensates = d.id)";
    let row =
        |r: &tuplewright_base::store::db::Row<'_>| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
    let rows: Vec<(i64, String, String, String)> = match task {
        Some(t) => conn
            .prepare(&format!("{base} AND d.task_id = ?1 ORDER BY d.id"))?
            .query_map(params![t], row)?
            .collect::<Result<_, StoreError>>()?,
        None => conn
            .prepare(&format!("{base} ORDER BY d.id"))?
            .query_map(params![], row)?
            .collect::<Result<_, StoreError>>()?,
    };
    let mut out = Latest::new();
    for (id, task, actor, reason) in rows {
        if let Some(l) = label(&reason) {
            out.entry(task)
                .or_default()
                .insert(actor, (id, l.to_string()));
        }
    }
    Ok(out)
}

/// Agreement of every pair of curators over the store.
pub fn agreement(store: &Store) -> Result<Agreement, StoreError> {
    let latest = latest_labels(store.conn(), None)?;
    let curators: BTreeSet<&String> = latest.values().flat_map(|m| m.keys()).collect();
    let mut out = Agreement {
        curators: curators.iter().map(|c| c.to_string()).collect(),
        ..Default::default()
    };
    let names: Vec<&String> = curators.into_iter().collect();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let pairs: Vec<(&str, &str)> = latest
                .values()
                .filter_map(|m| Some((m.get(*a)?.1.as_str(), m.get(*b)?.1.as_str())))
                .collect();
            if pairs.is_empty() {
                continue;
            }
            let agreed = pairs.iter().filter(|(x, y)| x == y).count();
            out.pairs.push(PairAgreement {
                a: a.to_string(),
                b: b.to_string(),
                tuples: pairs.len(),
                agreed,
                observed: agreed as f64 / pairs.len() as f64,
                kappa: cohen_kappa(&pairs),
            });
        }
    }
    for (task, m) in &latest {
        let v: Vec<(&String, &(i64, String))> = m.iter().collect();
        let labels: BTreeSet<&String> = v.iter().map(|(_, (_, l))| l).collect();
        out.disagreeing_tuples += usize::from(labels.len() > 1);
        for (i, (ca, (_, la))) in v.iter().enumerate() {
            for (cb, (_, lb)) in &v[i + 1..] {
                if la != lb {
                    out.disagreements.push(Disagreement {
                        task_id: task.clone(),
                        a: (ca.to_string(), la.clone()),
                        b: (cb.to_string(), lb.clone()),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Under [`ConflictPolicy::ThirdDecides`], sends `task_id` back to the human queue when exactly
/// two curators have decisions in force on it and they differ (a third curator's decision then
/// settles it). Returns whether it queued the tuple. `later_wins` does nothing.
pub fn enforce_in(
    tx: &Tx<'_>,
    policy: ConflictPolicy,
    task_id: &str,
    group: Option<&str>,
) -> Result<bool, CurateError> {
    if policy == ConflictPolicy::LaterWins {
        return Ok(false);
    }
    let latest = latest_labels(tx.conn(), Some(task_id))?;
    let Some(m) = latest.get(task_id) else {
        return Ok(false);
    };
    let v: Vec<(&String, &(i64, String))> = m.iter().collect();
    let [(a, (_, la)), (b, (_, lb))] = v.as_slice() else {
        return Ok(false);
    };
    if la == lb {
        return Ok(false);
    }
    let reason = format!("conflict: {a} {la} vs {b} {lb}; a third curator decides");
    let req = DecisionRequest {
        task_id,
        action: Action::Queue,
        actor: CONFLICT_ACTOR,
        source: DecisionSource::Policy,
        reason: &reason,
        aggregate: None,
    };
    apply_grouped_in(tx, &req, group)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kappa_matches_the_textbook_example() {
        // 50 items: both yes 20, a yes b no 5, a no b yes 10, both no 15 → κ = 0.4.
        let mut pairs = vec![("yes", "yes"); 20];
        pairs.extend(vec![("yes", "no"); 5]);
        pairs.extend(vec![("no", "yes"); 10]);
        pairs.extend(vec![("no", "no"); 15]);
        let k = cohen_kappa(&pairs).unwrap();
        assert!((k - 0.4).abs() < 1e-9, "κ = {k}");
        assert_eq!(cohen_kappa(&[("keep", "keep")]), None);
        assert_eq!(cohen_kappa(&[]), None);
    }
}
