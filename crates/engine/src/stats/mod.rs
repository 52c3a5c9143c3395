//! Dataset statistics of the paper's Appendix F, computed from the store.
//!
//! [`compute`] reads the store once and builds a [`Stats`] value; [`render`] turns it into
//! human-readable tables; `serde_json` of [`Stats`] is the stable `--json` form (field order and
//! names are part of the interface).

mod compute;
mod config;
mod render;
pub use config::StatsConfig;
pub use render::thousands;
pub mod text;

use serde::Serialize;

pub use compute::{compute, compute_with};
pub use render::render;

/// Which tuples the distribution tables describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Population {
    /// Final tuples if there are any, else every task.
    Auto,
    /// Only tuples with status `final` (the released corpus).
    Final,
    /// Every task in the store.
    All,
}

/// A labelled count with its share of the population.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Share {
    /// The label.
    pub name: String,
    /// How many.
    pub count: usize,
    /// Percentage of the population (0–100).
    pub percent: f64,
}

/// One row of the domain × difficulty matrix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DomainRow {
    /// Domain label (`(none)` when unlabelled).
    pub domain: String,
    /// Easy tasks.
    pub easy: usize,
    /// Medium tasks.
    pub medium: usize,
    /// Hard tasks.
    pub hard: usize,
    /// Tasks without a difficulty.
    pub unlabelled: usize,
    /// Row total.
    pub total: usize,
}

/// Instruction-length distribution (whitespace words).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lengths {
    /// Buckets 0–29, 30–59, 60–99, 100–149, 150–249, 250+.
    pub buckets: Vec<Share>,
    /// Mean length.
    pub mean: f64,
    /// Percentiles (nearest rank).
    pub p10: usize,
    /// 25th percentile.
    pub p25: usize,
    /// Median.
    pub p50: usize,
    /// 75th percentile.
    pub p75: usize,
    /// 90th percentile.
    pub p90: usize,
    /// 99th percentile.
    pub p99: usize,
    /// Longest.
    pub max: usize,
}

/// Yield per pipeline stage (over every tuple in the store).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Yield {
    /// All tasks.
    pub tasks: usize,
    /// Not yet through the loop (pending or in the loop).
    pub not_yet_looped: usize,
    /// The loop did not converge.
    pub loop_failed: usize,
    /// Got past the agreement loop (whatever happened after).
    pub loop_accepted: usize,
    /// Rejected by the critic vote.
    pub vote_rejected: usize,
    /// Waiting for a human decision.
    pub needs_human: usize,
    /// Rejected by teacher rollouts.
    pub rollout_rejected: usize,
    /// Released.
    pub final_tuples: usize,
    /// Dropped by a person or policy.
    pub dropped: usize,
    /// final / loop_accepted, percent.
    pub final_percent_of_loop_accepted: f64,
    /// Passed the critic vote, awaiting teacher rollouts.
    pub voted: usize,
    /// Decisions made by a person (overrides), undos included.
    pub human_decisions: usize,
    /// Of those, undos.
    pub human_undos: usize,
    /// Tuples whose current status was set by a person: the decision in effect (the latest that
    /// is neither an undo nor undone) is a human one.
    pub human_decided_tuples: usize,
    /// Imported bundles this harness has not verified (never counted as loop-accepted).
    pub imported_unverified: usize,
    /// Tuples that failed `verify` (C1–C5 or a probe).
    pub verify_failed: usize,
    /// Imported bundles that `verify` promoted: verified here, but not by the loop (so not in
    /// `loop_accepted` nor in the rounds to convergence).
    pub verified_imports: usize,
}

/// One A.2.5 coverage target (shared with `taskgen --report`).
pub use crate::taskgen::targets::Target;

/// Token usage and cost of one model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelCost {
    /// Model name.
    pub model: String,
    /// Input tokens.
    pub input_tokens: i64,
    /// Output tokens.
    pub output_tokens: i64,
    /// Cost in USD at the configured prices.
    pub cost_usd: f64,
    /// Cost in USD recorded with the usage rows when the calls were made (what `job budget
    /// --usd` counts); rows recorded before schema v11 carry none.
    pub recorded_cost_usd: f64,
}

/// Token and cost totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Costs {
    /// Per model, sorted by name.
    pub models: Vec<ModelCost>,
    /// All input tokens.
    pub input_tokens: i64,
    /// All output tokens.
    pub output_tokens: i64,
    /// Total cost (USD).
    pub cost_usd: f64,
    /// Total cost recorded with the usage rows (USD; what `job budget --usd` counts).
    pub recorded_cost_usd: f64,
    /// Total cost divided by the final tuples (null without any).
    pub cost_per_final_tuple_usd: Option<f64>,
}

/// Everything `tuplewright stats` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Which tuples the distribution tables describe (`final` or `all`).
    pub population: Population,
    /// Size of that population.
    pub population_size: usize,
    /// Tasks carrying the synthetic marker (see `tuplewright synth`).
    pub synthetic_tasks: usize,
    /// Table 9: tasks per scenario.
    pub scenarios: Vec<Share>,
    /// Table 10: domain × difficulty, rows by total.
    pub domain_difficulty: Vec<DomainRow>,
    /// Table 10's total row.
    pub difficulty_totals: DomainRow,
    /// Table 11: top first imperative verbs.
    pub top_verbs: Vec<Share>,
    /// Cross-app tasks (task_type cross_app, or two or more apps).
    pub cross_app_tasks: Share,
    /// Table 12: top app pairs among cross-app tasks (`a + b`).
    pub app_pairs: Vec<Share>,
    /// Table 13: instruction lengths.
    pub instruction_lengths: Lengths,
    /// Rounds the agreement loop took, over the tuples past the loop (`1`, `2`, ...); only rounds
    /// this harness ran (imported and verify rounds are not convergence).
    pub rounds_to_convergence: Vec<Share>,
    /// Rounds that imported bundles claim (their `adversarial_rounds` / REVIEW.md), shown apart.
    pub imported_rounds: Vec<Share>,
    /// A.4.3: yield per stage.
    pub yield_per_stage: Yield,
    /// A.2.5 coverage targets.
    pub coverage_targets: Vec<Target>,
    /// F.2.1: tokens and cost.
    pub costs: Costs,
    /// Agreement between curators (issue #33): pairs, Cohen's κ, tuples decided differently.
    pub agreement: tuplewright_records::curate::agreement::Agreement,
}

/// The percentages of `counts` in `of` as shown (one decimal), rounded by largest remainder so
/// that counts making up all of `of` show shares summing to exactly 100.0 (plain rounding can show
/// 100.1 or 99.9; issue #33). Counts covering part of `of` sum to their rounded part.
pub fn shown_percents(counts: &[usize], of: usize) -> Vec<f64> {
    if of == 0 {
        return vec![0.0; counts.len()];
    }
    let exact: Vec<f64> = counts
        .iter()
        .map(|&c| c as f64 * 1000.0 / of as f64)
        .collect();
    let mut tenths: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    let total: usize = counts.iter().sum();
    let want = (total as f64 * 1000.0 / of as f64).round() as u64;
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (exact[a] - exact[a].floor(), exact[b] - exact[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    let missing = want.saturating_sub(tenths.iter().sum());
    for &i in order.iter().take(missing as usize) {
        tenths[i] += 1;
    }
    tenths.into_iter().map(|t| t as f64 / 10.0).collect()
}

#[cfg(test)]
mod percent_tests {
    use super::shown_percents;

    #[test]
    fn shown_percents_of_a_whole_sum_to_exactly_100() {
        // Plain rounding shows 14.3 x 7 = 100.1 and 33.3 x 3 = 99.9.
        for (counts, of) in [
            (vec![1; 7], 7),
            (vec![1, 1, 1], 3),
            (vec![5, 3, 2, 1, 1, 1], 13),
        ] {
            let p = shown_percents(&counts, of);
            let tenths: u64 = p.iter().map(|x| (x * 10.0).round() as u64).sum();
            assert_eq!(tenths, 1000, "{counts:?}: {p:?}");
            for (c, x) in counts.iter().zip(&p) {
                assert!((x - *c as f64 * 100.0 / of as f64).abs() < 0.1, "{p:?}");
            }
        }
        // Part of a whole: the rounded part, no more.
        assert_eq!(shown_percents(&[1, 1], 7), vec![14.3, 14.3]);
        assert_eq!(shown_percents(&[3], 0), vec![0.0]);
    }
}
