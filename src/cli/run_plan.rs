//! Which tasks of the task files a `run` works on: unfinished ones, plus the finished ones asked
//! for with `--rerun ID` (recorded as a person's decision that names what it overrides); every
//! other task is left as it is and reported per status ([`crate::engine::harness::rerun`]).

use std::collections::BTreeSet;

use crate::engine::filter::decide::human_actor;
use crate::engine::harness::rerun::{record_rerun, RunPlan};
use crate::engine::harness::Bus;
use crate::engine::lease::LeaseKeeper;
use crate::engine::store::StoreError;

/// Checks that every `--rerun` id is a task of the task files (a typo must not pass silently).
pub fn rerun_ids(asked: &[String], all_ids: &[String]) -> anyhow::Result<BTreeSet<String>> {
    let known: BTreeSet<&str> = all_ids.iter().map(String::as_str).collect();
    let unknown: Vec<&str> = asked
        .iter()
        .map(String::as_str)
        .filter(|id| !known.contains(id))
        .collect();
    if !unknown.is_empty() {
        anyhow::bail!(
            "--rerun {}: not a task of the given task files (re-run a task by giving its file too)",
            unknown.join(", ")
        );
    }
    Ok(asked.iter().cloned().collect())
}

/// Records the re-runs of `p` (each printed as `rerun ID: overrides …`) and announces the skipped
/// tasks (a `run.skipped` event, one stderr line); returns the tasks to run. A re-run of a task
/// another live process holds, or one decided meanwhile, is refused with a line saying why.
pub fn start(bus: &Bus, leases: &LeaseKeeper, p: &RunPlan) -> anyhow::Result<Vec<String>> {
    let mut refused = BTreeSet::new();
    let ids: Vec<String> = p.reruns.iter().map(|o| o.task_id.clone()).collect();
    for l in leases.held_elsewhere(&ids)? {
        eprintln!("rerun {}: not re-run: {}", l.task_id, l.describe());
        refused.insert(l.task_id.clone());
    }
    let actor = human_actor(None);
    for o in &p.reruns {
        if refused.contains(&o.task_id) {
            continue;
        }
        match bus.write(|tx| record_rerun(tx, o, &actor)) {
            Ok(d) => eprintln!(
                "rerun {}: overrides {} (recorded as decision #{} by {actor})",
                o.task_id, o.what, d.id
            ),
            Err(StoreError::Invalid(why)) => {
                eprintln!("rerun {}: not re-run: {why}", o.task_id);
                refused.insert(o.task_id.clone());
            }
            Err(e) => return Err(e.into()),
        }
    }
    if !p.skipped.is_empty() {
        bus.emit("run.skipped", None, p.skipped_payload())?;
        eprintln!(
            "skipped {} finished task(s), left as they are (listed in the summary; `--rerun ID` runs one again)",
            p.skipped.len()
        );
    }
    Ok(p.run
        .iter()
        .filter(|id| !refused.contains(*id))
        .cloned()
        .collect())
}
