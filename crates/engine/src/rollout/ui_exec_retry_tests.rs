//! [`PlanStep::Retry`] on a scripted screen: a key the application drops is pressed again until
//! what it should show is there; a try that misses starts the next; too few tries miss.

use std::cell::Cell;
use std::rc::Rc;

use super::Executor;
use crate::rollout::screen::{ComputerAction, Observation, Screen};
use crate::rollout::ui_plan::{PlanStep, Rect, Target, TargetResolver};
use crate::rollout::RolloutError;

/// A screen counting key presses; the `n`-th press onwards "lands".
struct Keys(Rc<Cell<u32>>);

impl Screen for Keys {
    fn observe(&self) -> Result<Observation, RolloutError> {
        Ok(Observation::Screenshot {
            png: Vec::new(),
            width: 100,
            height: 100,
        })
    }
    fn perform(&self, action: &ComputerAction) -> Result<(), RolloutError> {
        if matches!(action, ComputerAction::Key { .. }) {
            self.0.set(self.0.get() + 1);
        }
        Ok(())
    }
}

/// `done` shows once `after` keys were pressed; `never` never shows.
struct Shows {
    presses: Rc<Cell<u32>>,
    after: u32,
}

impl TargetResolver for Shows {
    fn resolve(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError> {
        let shown = matches!(target, Target::Role { name, .. } if name == "done")
            && self.presses.get() >= self.after;
        Ok(shown.then_some(Rect {
            x: 1,
            y: 1,
            w: 2,
            h: 2,
        }))
    }
}

fn retry(tries: u32, steps: Vec<PlanStep>) -> PlanStep {
    PlanStep::Retry {
        until: Target::Role {
            role: "node".into(),
            name: "done".into(),
        },
        tries,
        timeout_ms: 50,
        steps,
    }
}

fn run(after: u32, plan: &[PlanStep]) -> (Option<String>, u32) {
    let presses = Rc::new(Cell::new(0));
    let screen = Keys(presses.clone());
    let mut resolver = Shows {
        presses: presses.clone(),
        after,
    };
    let out = Executor::on(&screen, &mut resolver, false)
        .unwrap()
        .run(plan)
        .unwrap();
    (out.miss, presses.get())
}

/// Two dropped presses, then the third lands: three tries succeed, and no press follows once
/// it shows; with two tries the step misses naming what never showed. Fails on the old
/// executor, which had no such step.
#[test]
fn retry_presses_again_until_the_target_shows() {
    let press = vec![PlanStep::Key { key: "F2".into() }];
    assert_eq!(run(3, &[retry(3, press.clone())]), (None, 3));
    assert_eq!(run(0, &[retry(3, press.clone())]), (None, 0));
    let (miss, presses) = run(3, &[retry(2, press.clone())]);
    assert_eq!(presses, 2);
    let miss = miss.unwrap();
    assert!(
        miss.contains("node \"done\" did not appear after 2 tries"),
        "{miss}"
    );
    // A try whose own wait misses does not fail the plan: the next try runs.
    let waits = vec![
        PlanStep::Key { key: "Tab".into() },
        PlanStep::WaitFor {
            target: Target::Role {
                role: "node".into(),
                name: "done".into(),
            },
            timeout_ms: 20,
        },
    ];
    assert_eq!(run(2, &[retry(3, waits)]), (None, 2));
}
