//! Why a `ui-oracle` plan step missed ([`StepMiss`]): the planner's expectation did not hold on
//! the screen. A miss ends the plan as the planner's miss (never the tuple's, never
//! infrastructure); its text is the trial's transcript.

/// One plan step's miss, with the miss that caused it as its source where there is one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StepMiss {
    /// The target never showed (within the step's wait).
    #[error("{target} not on screen")]
    NotOnScreen {
        /// The target, as the transcript names it.
        target: String,
    },
    /// Scrolling did not bring the target into view.
    #[error("{target} not reached by scrolling")]
    NotReached {
        /// The target.
        target: String,
    },
    /// A `wait_for` target did not appear in time.
    #[error("{target} did not appear")]
    DidNotAppear {
        /// The target.
        target: String,
    },
    /// A submit's click loaded no new page in time.
    #[error("clicking {target} loaded no new page within {secs} s")]
    NoNewPage {
        /// The target clicked.
        target: String,
        /// How long the executor waited, seconds.
        secs: u64,
    },
    /// The screen refused an action (its message, the model-facing observation).
    #[error("{0}")]
    Refused(String),
    /// A step inside a retry block missed.
    #[error("{source} ({step})")]
    InStep {
        /// The step, as the transcript names it.
        step: String,
        /// Its miss.
        #[source]
        source: Box<StepMiss>,
    },
    /// A retry block's `until` target did not appear after every try.
    #[error("{target} did not appear after {tries} tries; last: {}", last.as_deref().map_or("never tried".to_string(), ToString::to_string))]
    Retried {
        /// The `until` target.
        target: String,
        /// Tries made.
        tries: u32,
        /// The last try's miss (`None`: never tried).
        #[source]
        last: Option<Box<StepMiss>>,
    },
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use serde_json::json;

    use super::StepMiss;
    use crate::rollout::plan_steps::{text, SlotError};
    use crate::rollout::ui_plan::PlanRefusal;

    #[test]
    fn a_retry_miss_reads_as_before_and_keeps_its_cause_as_source() {
        let last = StepMiss::InStep {
            step: "click node \"Save\"".into(),
            source: Box::new(StepMiss::NotOnScreen {
                target: "node \"Save\"".into(),
            }),
        };
        let miss = StepMiss::Retried {
            target: "node \"done\"".into(),
            tries: 2,
            last: Some(Box::new(last.clone())),
        };
        assert_eq!(
            miss.to_string(),
            "node \"done\" did not appear after 2 tries; last: node \"Save\" not on screen \
             (click node \"Save\")"
        );
        let cause = miss.source().map(ToString::to_string);
        assert_eq!(cause, Some(last.to_string()));
        let never = StepMiss::Retried {
            target: "x".into(),
            tries: 0,
            last: None,
        };
        assert_eq!(
            never.to_string(),
            "x did not appear after 0 tries; last: never tried"
        );
        assert!(never.source().is_none());
    }

    #[test]
    fn a_bad_slot_is_a_typed_refusal_with_the_slot_error_as_source() {
        let slots = json!({"issue": 7});
        let err = text(&slots, "issue").err();
        assert_eq!(
            err,
            Some(SlotError::NotText {
                key: "issue".into()
            })
        );
        let refusal = PlanRefusal::from(err.unwrap_or(SlotError::NotText { key: String::new() }));
        assert_eq!(refusal, "slot `issue` is missing or not a string");
        let source = refusal.source().and_then(|s| s.downcast_ref::<SlotError>());
        assert!(source.is_some(), "{refusal:?}");
        assert!(PlanRefusal::new("template x has no plan")
            .source()
            .is_none());
    }
}
