//! The agreement loop's decision core: from the harness's observations of one round (script runs, scan
//! findings, reward runs) to the five agreement conditions C1–C5 and the round's REVIEW.md.
//!
//! This module is pure: it performs no I/O, so the same code decides a live round, a `verify` of an imported
//! bundle, and a replay in tests.

mod conditions;
mod probes;
mod review;

pub use conditions::{
    evaluate, ComponentScore, Condition, ConditionId, ConditionStatus, RewardRun, RoundObservation,
    RoundVerdict, ScanFindingRef, ScriptRun,
};
pub use probes::{judge as judge_probes, ProbeCheck, ProbeRun};
pub use review::render_review;

#[cfg(test)]
mod tests;
