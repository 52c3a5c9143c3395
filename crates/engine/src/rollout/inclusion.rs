//! The A.4.2 inclusion rule over N trials. Without a judge the reward score stands alone (and the
//! result says so): the judge mean is taken equal to the reward mean.

use serde::Serialize;

/// What the trials say about a tuple.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "category", rename_all = "snake_case")]
pub enum Inclusion {
    /// Both means in (0, 1) and closer than δ.
    Accepted,
    /// Both means 0: plausibly unsolvable, removed.
    Unsolvable,
    /// Both scores 1 on the first trial: plausibly trivial, down-sampled.
    Trivial,
    /// Reward and judge means differ by δ or more: needs a reward refinement.
    Disagreement {
        /// |mean reward − mean judge|.
        gap: f64,
    },
    /// None of the above (e.g. reward mean 0 with a small judge mean): a human decides.
    Unclassified,
}

/// Means of the trials and the category.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classified {
    /// The category.
    pub inclusion: Inclusion,
    /// Mean reward.
    pub reward_mean: f64,
    /// Mean judge score (equal to the reward mean without a judge).
    pub judge_mean: f64,
    /// Whether a judge scored the trials.
    pub judged: bool,
}

/// Classifies scored trials: `(reward, judge)` per trial, in order (at least one).
pub fn classify(trials: &[(f64, Option<f64>)], delta: f64) -> Classified {
    let n = trials.len().max(1) as f64;
    let judged = !trials.is_empty() && trials.iter().all(|t| t.1.is_some());
    let r = trials.iter().map(|t| t.0).sum::<f64>() / n;
    let j = if judged {
        trials.iter().filter_map(|t| t.1).sum::<f64>() / n
    } else {
        r
    };
    let eps = 1e-9;
    let first = trials.first().map(|t| (t.0, t.1.unwrap_or(t.0)));
    let inclusion = if r < eps && j < eps {
        Inclusion::Unsolvable
    } else if first.is_some_and(|(a, b)| a > 1.0 - eps && b > 1.0 - eps) {
        Inclusion::Trivial
    } else if (r - j).abs() >= delta {
        Inclusion::Disagreement { gap: (r - j).abs() }
    } else if r > eps && r < 1.0 - eps && j > eps && j < 1.0 - eps {
        Inclusion::Accepted
    } else {
        Inclusion::Unclassified
    };
    Classified {
        inclusion,
        reward_mean: r,
        judge_mean: j,
        judged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_a42_categories() {
        let c = |t: &[(f64, Option<f64>)]| classify(t, 0.25).inclusion;
        assert_eq!(
            c(&[(0.5, Some(0.6)), (0.4, Some(0.5))]),
            Inclusion::Accepted
        );
        assert_eq!(
            c(&[(0.0, Some(0.0)), (0.0, Some(0.0))]),
            Inclusion::Unsolvable
        );
        assert_eq!(c(&[(1.0, Some(1.0)), (0.5, Some(0.5))]), Inclusion::Trivial);
        assert!(matches!(
            c(&[(0.2, Some(0.9))]),
            Inclusion::Disagreement { .. }
        ));
        assert_eq!(c(&[(0.0, Some(0.1))]), Inclusion::Unclassified);
        // Without a judge the reward stands alone.
        let alone = classify(&[(0.5, None), (0.5, None)], 0.25);
        assert_eq!(alone.inclusion, Inclusion::Accepted);
        assert!(!alone.judged);
        assert_eq!(c(&[(1.0, None)]), Inclusion::Trivial);
        assert_eq!(c(&[(0.0, None)]), Inclusion::Unsolvable);
    }
}
