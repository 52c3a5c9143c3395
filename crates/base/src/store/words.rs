//! The one vocabulary of tuple statuses, used by every face (CLI output, `export`, `meta.json`,
//! the workbench) and documented in README.md, section "Words".
//!
//! - **verified**: this harness itself ran the scripts and saw C1–C5 hold (two reward runs on each
//!   endpoint agreeing) and the reward probes pass — in the agreement loop or in `verify`.
//!   Imported bundles are *unverified* until `verify` replays them.
//! - **accepted** (`loop_accepted`): verified by the loop; not yet voted on or rolled out. This is
//!   what `run` produces.
//! - **final**: verified, kept by the filter (critic vote or a person) and by the teacher rollouts'
//!   inclusion rule (or an imported bundle `verify` promoted): the curated corpus.
//! - **out**: left out of every export by default — rejected by the loop, the vote, the rollouts or
//!   a person, or failed `verify`.

use super::TupleStatus;

impl TupleStatus {
    /// True when this harness has verified the tuple (C1–C5 and the probes held in the loop or in
    /// `verify`), whatever happened to it later.
    pub fn verified(self) -> bool {
        self.passed_loop()
    }

    /// True when the tuple is out: rejected by the loop, the critic vote, the rollouts or a person.
    pub fn out(self) -> bool {
        matches!(
            self,
            Self::LoopFailed | Self::VoteRejected | Self::RolloutRejected | Self::Dropped
        )
    }

    /// The statuses `run` delivers and `export` writes by default: verified and not out.
    pub fn exported_by_default() -> Vec<TupleStatus> {
        Self::ALL
            .into_iter()
            .filter(|s| s.verified() && !s.out())
            .collect()
    }

    /// What the status means, in the words of README.md's "Words" section.
    pub fn meaning(self) -> &'static str {
        match self {
            Self::Pending => "not through the agreement loop yet",
            Self::InLoop => "in the agreement loop (or interrupted there; `run` continues it)",
            Self::LoopFailed => "out: no agreement within K rounds",
            Self::LoopAccepted => {
                "verified by the agreement loop (C1-C5 and the probes); not yet voted on or rolled out"
            }
            Self::VoteRejected => "out: verified, then rejected by the critic vote",
            Self::NeedsHuman => "verified; waiting for a person's decision",
            Self::Voted => "verified and kept by the critic vote or a person; not yet rolled out",
            Self::RolloutRejected => "out: verified, then rejected by the teacher rollouts",
            Self::Final => "final: verified, kept by the filter and the teacher rollouts",
            Self::Dropped => "out: left out by a person or a policy",
            Self::Imported => "imported bundle, unverified (`verify` checks it)",
            Self::VerifyFailed => "unverified: `verify` replayed it and a check failed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TupleStatus;

    #[test]
    fn the_default_export_is_every_verified_tuple_that_is_not_out() {
        let names: Vec<&str> = TupleStatus::exported_by_default()
            .into_iter()
            .map(TupleStatus::as_str)
            .collect();
        assert_eq!(names, ["loop_accepted", "needs_human", "voted", "final"]);
        assert!(TupleStatus::ALL
            .iter()
            .filter(|s| s.unverified())
            .all(|s| !s.verified()));
    }
}
