//! C1–C5 (paper A.3.1) plus determinism, evaluated from what the harness observed.

use serde::{Deserialize, Serialize};

use super::probes::{judge, ProbeCheck, ProbeRun};

/// Tolerance when comparing rewards to the endpoints 1.0 and 0.0 (rewards are printed decimals).
pub const SCORE_EPSILON: f64 = 1e-6;

/// One agreement condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConditionId {
    /// initial_setup.py ran to completion on V_init.
    C1,
    /// golden_patch.py ran to completion on V_gold.
    C2,
    /// r(V_gold) = 1.0 (and both runs agree).
    C3,
    /// r(V_init) = 0.0 (and both runs agree).
    C4,
    /// reward.py passes the forbidden-pattern scan.
    C5,
}

impl ConditionId {
    /// All conditions, in table order.
    pub const ALL: [ConditionId; 5] = [Self::C1, Self::C2, Self::C3, Self::C4, Self::C5];

    /// The condition's name as printed in REVIEW.md.
    pub fn title(self) -> &'static str {
        match self {
            Self::C1 => "initial_setup.py executes on V_init",
            Self::C2 => "golden_patch.py executes on V_gold",
            Self::C3 => "r(gold) = 1.0",
            Self::C4 => "r(init) = 0.0",
            Self::C5 => "reward.py passes the forbidden-pattern scan",
        }
    }
}

/// Outcome of checking one condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConditionStatus {
    /// The condition holds.
    Pass,
    /// The condition does not hold.
    Fail,
    /// Not checked because an earlier step failed (e.g. no reward runs after a failed setup).
    NotRun,
}

/// A checked condition with a one-line explanation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    /// Which condition.
    pub id: ConditionId,
    /// Whether it holds.
    pub status: ConditionStatus,
    /// What was observed.
    pub details: String,
}

/// How a sandboxed script run ended, reduced to what the conditions need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptRun {
    /// True when the script exited 0 within its limits.
    pub ok: bool,
    /// A short description of the failure (exit code, limit, timeout) and the stderr tail.
    pub failure: Option<String>,
}

/// One scored component of a reward run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComponentScore {
    /// Component name as printed by the reward.
    pub name: String,
    /// Weight in [0, 1]; weights of a reward sum to 1.0.
    pub weight: f64,
    /// Score in [0, 1] of this component.
    pub score: f64,
    /// Free-text detail.
    pub detail: String,
}

/// One execution of reward.py on one environment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RewardRun {
    /// The reward printed a valid `REWARD:` line.
    Scored {
        /// The final score.
        score: f64,
        /// Its breakdown, possibly empty.
        components: Vec<ComponentScore>,
    },
    /// The reward crashed, timed out or printed no valid `REWARD:` line. Never a 0.0 score.
    Error(String),
}

impl RewardRun {
    fn score(&self) -> Option<f64> {
        match self {
            RewardRun::Scored { score, .. } => Some(*score),
            RewardRun::Error(_) => None,
        }
    }
}

/// A forbidden-pattern finding, reduced to what REVIEW.md shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanFindingRef {
    /// Stable rule id (e.g. `bare-existence-score`).
    pub rule: String,
    /// 1-based line in reward.py.
    pub line: usize,
    /// One-sentence reason.
    pub reason: String,
}

/// Everything the harness observed in one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundObservation {
    /// Round number, from 1.
    pub round: u32,
    /// initial_setup.py on V_init.
    pub setup: ScriptRun,
    /// golden_patch.py on V_gold (None when not run because setup failed).
    pub golden: Option<ScriptRun>,
    /// Scan findings of reward.py (empty = clean).
    pub scan: Vec<ScanFindingRef>,
    /// Reward runs on V_gold, in order (normally two).
    pub gold_runs: Vec<RewardRun>,
    /// Reward runs on V_init, in order (normally two).
    pub init_runs: Vec<RewardRun>,
    /// Reward runs on the probe states (empty = not run: they run once C1–C5 hold).
    #[serde(default)]
    pub probes: Vec<ProbeRun>,
    /// Highest score a probe may get.
    #[serde(default)]
    pub probe_threshold: f64,
}

/// The conditions of a round and whether it passes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundVerdict {
    /// C1..C5 in order.
    pub conditions: Vec<Condition>,
    /// The probes, judged (empty when they were not run).
    #[serde(default)]
    pub probes: Vec<ProbeCheck>,
    /// True iff every condition and every probe passes.
    pub pass: bool,
}

impl RoundVerdict {
    /// The conditions that did not pass (failed or not run).
    pub fn failing(&self) -> Vec<ConditionId> {
        self.conditions
            .iter()
            .filter(|c| c.status != ConditionStatus::Pass)
            .map(|c| c.id)
            .collect()
    }

    /// Every failing check by name: `C1`..`C5`, then `probe:<name>`.
    pub fn failing_names(&self) -> Vec<String> {
        self.failing()
            .iter()
            .map(|c| format!("{c:?}"))
            .chain(
                self.probes
                    .iter()
                    .filter(|p| !p.pass)
                    .map(ProbeCheck::condition),
            )
            .collect()
    }
}

fn script_condition(id: ConditionId, run: Option<&ScriptRun>) -> Condition {
    match run {
        None => Condition {
            id,
            status: ConditionStatus::NotRun,
            details: "not run: an earlier step failed".into(),
        },
        Some(r) if r.ok => Condition {
            id,
            status: ConditionStatus::Pass,
            details: "ran to completion (exit 0)".into(),
        },
        Some(r) => Condition {
            id,
            status: ConditionStatus::Fail,
            details: r.failure.clone().unwrap_or_else(|| "failed".into()),
        },
    }
}

/// Checks that every run scored, all runs agree, and the score equals `target`.
fn reward_condition(id: ConditionId, runs: &[RewardRun], target: f64, env: &str) -> Condition {
    if runs.is_empty() {
        return Condition {
            id,
            status: ConditionStatus::NotRun,
            details: format!("reward not run on V_{env}"),
        };
    }
    let fail = |details: String| Condition {
        id,
        status: ConditionStatus::Fail,
        details,
    };
    let mut scores = Vec::with_capacity(runs.len());
    for (i, run) in runs.iter().enumerate() {
        match run {
            RewardRun::Error(e) => {
                return fail(format!("reward error on V_{env} (run {}): {e}", i + 1))
            }
            RewardRun::Scored { score, .. } => scores.push(*score),
        }
    }
    let first = scores[0];
    if scores.iter().any(|s| (s - first).abs() > SCORE_EPSILON) {
        let list: Vec<String> = scores.iter().map(|s| format!("{s:.4}")).collect();
        return fail(format!(
            "non-deterministic reward on V_{env}: runs scored {}",
            list.join(", ")
        ));
    }
    if (first - target).abs() <= SCORE_EPSILON {
        Condition {
            id,
            status: ConditionStatus::Pass,
            details: format!("r({env}) = {first:.4} on {} identical runs", scores.len()),
        }
    } else {
        fail(format!("r({env}) = {first:.4}, expected {target:.1}"))
    }
}

/// Evaluates C1–C5 for one round.
pub fn evaluate(obs: &RoundObservation) -> RoundVerdict {
    let c1 = script_condition(ConditionId::C1, Some(&obs.setup));
    let c2 = script_condition(ConditionId::C2, obs.golden.as_ref());
    let c3 = reward_condition(ConditionId::C3, &obs.gold_runs, 1.0, "gold");
    let c4 = reward_condition(ConditionId::C4, &obs.init_runs, 0.0, "init");
    let c5 = if obs.scan.is_empty() {
        Condition {
            id: ConditionId::C5,
            status: ConditionStatus::Pass,
            details: "no forbidden pattern".into(),
        }
    } else {
        let rules: Vec<String> = obs
            .scan
            .iter()
            .map(|f| format!("{} (line {})", f.rule, f.line))
            .collect();
        Condition {
            id: ConditionId::C5,
            status: ConditionStatus::Fail,
            details: format!("forbidden: {}", rules.join(", ")),
        }
    };
    let conditions = vec![c1, c2, c3, c4, c5];
    let probes = judge(&obs.probes, obs.probe_threshold);
    let pass = conditions.iter().all(|c| c.status == ConditionStatus::Pass)
        && probes.iter().all(|p| p.pass);
    RoundVerdict {
        conditions,
        probes,
        pass,
    }
}

/// The first scored run of a list, used for breakdown tables.
pub fn first_scored(runs: &[RewardRun]) -> Option<(f64, &[ComponentScore])> {
    runs.iter().find_map(|r| match r {
        RewardRun::Scored { score, components } => Some((*score, components.as_slice())),
        RewardRun::Error(_) => None,
    })
}

/// Scores of all runs, `None` for errors (for summaries).
pub fn scores(runs: &[RewardRun]) -> Vec<Option<f64>> {
    runs.iter().map(RewardRun::score).collect()
}
