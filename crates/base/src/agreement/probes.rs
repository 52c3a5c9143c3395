//! Judging the reward probes (see `engine::probes`): on each probe state the reward must score at
//! most a threshold (default 0.0). A probe above it — or a reward that cannot score the probe
//! state at all — fails the round with the named condition `probe:<name>`.

use serde::{Deserialize, Serialize};

use super::conditions::{RewardRun, SCORE_EPSILON};

/// One probe as the harness ran it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeRun {
    /// Probe name (`noop`, `empty_state`, `destructive`).
    pub probe: String,
    /// What state the probe built, e.g. "V_init with mail.messages wiped (60 items)".
    pub state: String,
    /// The reward's run on that state.
    pub run: RewardRun,
}

/// A judged probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeCheck {
    /// Probe name.
    pub probe: String,
    /// True when the reward gave at most the threshold (an error gives nothing).
    pub pass: bool,
    /// The probe's score (`None` = the reward errored there).
    pub score: Option<f64>,
    /// One line: the state, the score and the threshold, or the error.
    pub details: String,
}

impl ProbeCheck {
    /// The failing-condition name, `probe:<name>`.
    pub fn condition(&self) -> String {
        format!("probe:{}", self.probe)
    }
}

/// Judges every probe against `threshold`.
pub fn judge(runs: &[ProbeRun], threshold: f64) -> Vec<ProbeCheck> {
    runs.iter()
        .map(|p| match &p.run {
            RewardRun::Scored { score, .. } => {
                let pass = *score <= threshold + SCORE_EPSILON;
                let verdict = if pass { "at most" } else { "above" };
                ProbeCheck {
                    probe: p.probe.clone(),
                    pass,
                    score: Some(*score),
                    details: format!(
                        "{}: r = {score:.4}, {verdict} the threshold {threshold:.2}",
                        p.state
                    ),
                }
            }
            RewardRun::Error(e) => ProbeCheck {
                probe: p.probe.clone(),
                pass: true,
                score: None,
                details: format!(
                    "{}: no credit given, the reward could not score this state: {e}",
                    p.state
                ),
            },
        })
        .collect()
}
